//! The `relic` command: inspect, convert and batch-convert the skeletal models of LithTech ABC,
//! Nod NOD/NAD and World of Warcraft M2, and glTF 2.0.
//!
//! Exit codes: 0 success, 1 a file failed, 2 bad usage.

use std::process::ExitCode;

use relic_cli::cli::{self, Command};
use relic_cli::{CliError, batch, convert, info};

fn main() -> ExitCode {
    let parsed = cli::parse();
    let result = match parsed.command {
        Command::Info { files, json, listfile } => info::run_listed(&files, json, listfile.as_deref()),
        Command::Formats => {
            print!("{}", info::formats());
            Ok(true)
        }
        Command::Convert(args) => convert::run(&args),
        Command::Batch(args) => batch::run_command(&args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut cli::command(), "relic", &mut std::io::stdout());
            Ok(true)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => fail(&e),
    }
}

fn fail(error: &CliError) -> ExitCode {
    eprintln!("relic: {error}");
    ExitCode::from(error.exit_code())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_is_well_formed() {
        relic_cli::cli::command().debug_assert();
    }
}
