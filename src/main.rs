//! `kifu`: the command-line tool. Its commands live in the library (`src/cli/`).

/// The allocator: mimalloc, whose threads free what another allocated without waiting on a lock
/// (see `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    kifu::run_cli()
}
