//! The `relic` command: inspect, convert and batch-convert the skeletal models of LithTech ABC,
//! Nod NOD/NAD and World of Warcraft M2, and glTF 2.0.
//!
//! Exit codes: 0 success, 1 a file failed, 2 bad usage.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use relic::{ConvertOptions, Target, convert};
use relic_cli::batch::{self, BatchRequest};
use relic_cli::output::OutputPolicy;
use relic_cli::{CliError, info};

/// relic: brings the skeletal models of LithTech ABC (Shogo, Blood 2, NOLF, AVP2), Nod NOD/NAD
/// (Vampire: The Masquerade – Redemption) and World of Warcraft M2 (Classic, TBC) to glTF 2.0 and back.
#[derive(Debug, Parser)]
#[command(name = "relic", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show a file's format, version and the format's own counts.
    #[command(after_help = "Examples:
  relic info fixtures/abc/v12_basic.abc
  relic info --json models/*.m2 > counts.jsonl")]
    Info {
        /// Model or animation files (recognised by content, not by extension).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON object per file, one per line.
        #[arg(long)]
        json: bool,
    },
    /// Convert one model to another format, chosen by the output's extension.
    #[command(after_help = "Examples:
  relic convert PARTNER_DANCIN.ABC partner.glb
  relic convert gnome.glb gnome.m2 --version 256
  relic convert vampire.nod vampire.gltf --anim walk.nad --anim run.nad
  relic convert model.abc model_lod0.abc --lod 0 --force")]
    Convert {
        /// The model: .abc, .m2, .nod, .glb or .gltf (recognised by content).
        input: PathBuf,
        /// The output: .glb, .gltf (+ .bin), .abc, .m2 or .nod.
        output: PathBuf,
        /// NAD animations to play on a NOD model (repeatable).
        #[arg(long = "anim", value_name = "FILE.nad")]
        animations: Vec<PathBuf>,
        /// Version of the output format (ABC 6 or 12, M2 256 or 260–263, NOD 7).
        #[arg(long)]
        version: Option<u32>,
        /// Levels of detail to keep.
        #[arg(long, value_enum, default_value_t = Lods::All)]
        lod: Lods,
        /// Where to look for PNG/JPEG versions of the textures (default: the input's folder).
        #[arg(long, value_name = "DIR")]
        textures: Option<PathBuf>,
        /// Overwrite an existing output.
        #[arg(long)]
        force: bool,
        /// List every thing the target cannot hold (by default the first ten and a count).
        #[arg(long)]
        verbose: bool,
    },
    /// Convert every model under a folder, in parallel, into a mirrored folder tree.
    #[command(after_help = "Examples:
  relic batch extracted/Models out/ --to glb
  relic batch out/ back/ --to m2 --version 256 --jobs 2")]
    Batch {
        /// Folder searched recursively; files are recognised by content.
        input_dir: PathBuf,
        /// Where the outputs go (folders are created as needed).
        output_dir: PathBuf,
        /// Output format.
        #[arg(long, value_parser = ["glb", "gltf", "abc", "m2", "nod"])]
        to: String,
        /// Worker threads (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Version of the output format.
        #[arg(long)]
        version: Option<u32>,
        /// Levels of detail to keep.
        #[arg(long, value_enum, default_value_t = Lods::All)]
        lod: Lods,
        /// Overwrite existing outputs.
        #[arg(long)]
        force: bool,
        /// One plain line per file even on a terminal.
        #[arg(long)]
        no_progress: bool,
    },
}

/// Which levels of detail to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Lods {
    /// Only the full-detail meshes.
    #[value(name = "0")]
    Zero,
    /// Every level.
    All,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info { files, json } => run_info(&files, json),
        Command::Convert { input, output, animations, version, lod, textures, force, verbose } => {
            let options = ConvertOptions { version, lod0_only: lod == Lods::Zero, texture_dir: textures };
            run_convert(&input, &output, &animations, &options, force, verbose)
        }
        Command::Batch { input_dir, output_dir, to, jobs, version, lod, force, no_progress } => {
            let Some(target) = Target::from_name(&to) else {
                return fail(&CliError::Usage(format!("unknown output format {to}")));
            };
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
            let request = BatchRequest {
                input_dir,
                output_dir,
                target,
                jobs,
                force,
                options: ConvertOptions { version, lod0_only: lod == Lods::Zero, texture_dir: None },
                progress: !no_progress,
            };
            match batch::run(&request) {
                Ok(summary) => {
                    println!("{summary}");
                    Ok(summary.failed == 0)
                }
                Err(e) => Err(e),
            }
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => fail(&e),
    }
}

/// Notes about what the target cannot hold printed without `--verbose`.
const NOTES_SHOWN: usize = 10;

fn fail(error: &CliError) -> ExitCode {
    eprintln!("relic: {error}");
    ExitCode::from(if error.is_usage() { 2 } else { 1 })
}

/// Prints every file it can; `Ok(false)` if any failed.
fn run_info(files: &[PathBuf], json: bool) -> Result<bool, CliError> {
    let mut all_ok = true;
    for path in files {
        let described = relic::read_file(path).map_err(CliError::from).and_then(|bytes| info::describe(path, &bytes));
        match described {
            Ok(facts) if json => println!("{}", info::json_line(path, &facts)),
            Ok(facts) => print!("{}", info::text_block(path, &facts)),
            Err(e) => {
                eprintln!("relic: {e}");
                all_ok = false;
            }
        }
    }
    Ok(all_ok)
}

fn run_convert(
    input_path: &Path,
    output: &Path,
    animations: &[PathBuf],
    options: &ConvertOptions,
    force: bool,
    verbose: bool,
) -> Result<bool, CliError> {
    let target = Target::for_path(output)?;
    let bytes = relic::read_file(input_path)?;
    let kind = relic::detect(&bytes).ok_or_else(|| relic::Error::NotModel { file: input_path.to_path_buf() })?;
    let anims: Vec<&Path> = animations.iter().map(PathBuf::as_path).collect();
    let loaded = relic::load_model(input_path, &bytes, kind, &anims)?;
    for note in &loaded.losses {
        eprintln!("relic: note: {}: {note}", input_path.display());
    }
    let model = loaded.value;
    let options = ConvertOptions {
        texture_dir: options.texture_dir.clone().or_else(|| input_path.parent().map(Path::to_path_buf)),
        ..options.clone()
    };
    let converted = convert(&model, target, output, &options)?;
    let mut policy = OutputPolicy { force, ..OutputPolicy::default() };
    policy.protect(input_path);
    for a in animations {
        policy.protect(a);
    }
    // A .gltf input's .bin and images are input files too.
    for f in relic::referenced_files(input_path, &bytes, kind) {
        policy.protect(&f);
    }
    let written = policy.write_all(&converted.value)?;
    let shown = if verbose { converted.losses.len() } else { NOTES_SHOWN };
    for loss in converted.losses.iter().take(shown) {
        eprintln!("relic: note: {} cannot hold {loss}", target.extension());
    }
    if converted.losses.len() > shown {
        eprintln!("relic: note: … and {} more (--verbose lists them all)", converted.losses.len() - shown);
    }
    let names: Vec<String> = converted.value.iter().map(|(p, _)| p.display().to_string()).collect();
    println!("wrote {} ({written} bytes)", names.join(" + "));
    Ok(true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
