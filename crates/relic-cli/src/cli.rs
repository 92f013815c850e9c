//! The command line: what `relic` accepts, with the version lists taken from the format registry
//! (so the help always says what the crates really write).

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use relic_core::format::Versions;

/// relic: brings the skeletal models of classic games to glTF 2.0 and back (the formats and versions
/// it reads come from the format registry: [`about`]).
///
/// Exit codes: 0 success, 1 a file failed, 2 bad usage.
#[derive(Debug, Parser)]
#[command(name = "relic", version)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
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
        /// The community listfile (`id;path` lines) naming the files a chunked M2 refers to by
        /// FileDataID: each id is shown with its path.
        #[arg(long, value_name = "FILE")]
        listfile: Option<PathBuf>,
    },
    /// Convert one model (or texture) to another format, chosen by the output's extension.
    #[command(after_help = "Examples:
  relic convert PARTNER_DANCIN.ABC partner.glb
  relic convert gnome.glb gnome.m2 --version 256
  relic convert vampire.nod vampire.gltf --anim walk.nad --anim run.nad
  relic convert model.abc model_lod0.abc --lod 0 --force
  relic convert RabbitSkin.blp rabbit.png
  relic convert skin.png skin.blp --encoding dxt5
  relic convert skin.png SKIN.DTX --version 2 --encoding palettized --mips 1
  relic convert SKIN.DTX copy.dtx          (an unchanged texture: the same bytes)")]
    Convert(ConvertArgs),
    /// Convert every model under a folder, in parallel, into a mirrored folder tree.
    #[command(after_help = "Examples:
  relic batch extracted/Models out/ --to glb
  relic batch out/ back/ --to m2 --version 256 --jobs 2
  relic batch extracted/ out/ --to glb --json > report.jsonl")]
    Batch(BatchArgs),
    /// List the formats relic reads and writes, with their versions.
    Formats,
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell).
    #[command(after_help = "Examples:
  relic completions bash > ~/.local/share/bash-completion/completions/relic
  relic completions zsh > ~/.zfunc/_relic")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// `relic convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The model (.abc, .m2, .nod, .glb, .gltf) or texture (.blp, .dtx, .png), recognised by
    /// content.
    pub input: PathBuf,
    /// The output: .glb, .gltf (+ .bin), .abc, .m2 or .nod for a model; .png, .blp or .dtx for a
    /// texture.
    pub output: PathBuf,
    /// NAD animations to play on a NOD model (repeatable).
    #[arg(long = "anim", value_name = "FILE.nad")]
    pub animations: Vec<PathBuf>,
    /// Version, levels of detail and textures.
    #[command(flatten)]
    pub common: CommonArgs,
    /// Overwrite an existing output.
    #[arg(long)]
    pub force: bool,
    /// List every thing the target cannot hold (by default the first ten and a count).
    #[arg(long)]
    pub verbose: bool,
    /// Refuse the conversion (exit 1, nothing written) if the output cannot hold everything.
    #[arg(long)]
    pub strict: bool,
    /// Compression of a texture output (.blp, .dtx): auto keeps the input's own when a texture
    /// goes back to its own format, else picks from the image's alpha.
    #[arg(long, value_enum, default_value_t = Encoding::Auto)]
    pub encoding: Encoding,
    /// Mip levels of a texture output, level 0 included (default: the input's own count when a
    /// texture goes back to its own format, else every level down to 1×1 for BLP, 4 for DTX).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16))]
    pub mips: Option<u32>,
}

/// Compression of a texture output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Encoding {
    /// The input's own encoding when a texture goes back to its own format; otherwise from the
    /// image: DXT1 without (or with 1-bit) alpha, else DXT5 (BLP); 32-bit (DTX v5).
    Auto,
    /// BC1.
    Dxt1,
    /// BC2.
    Dxt3,
    /// BC3.
    Dxt5,
    /// 256 colours with an alpha plane (BLP) / 8-bit palettized (DTX v2; with --version 5, the
    /// PS2's BPP_32P: 256 RGBA colours in a PALLETE32 section).
    Palettized,
    /// Uncompressed 32-bit colour.
    Raw,
}

impl From<Encoding> for relic_core::texture::TextureEncoding {
    fn from(e: Encoding) -> Self {
        use relic_core::texture::TextureEncoding as T;
        match e {
            Encoding::Auto => T::Auto,
            Encoding::Dxt1 => T::Dxt1,
            Encoding::Dxt3 => T::Dxt3,
            Encoding::Dxt5 => T::Dxt5,
            Encoding::Palettized => T::Palettized,
            Encoding::Raw => T::Raw32,
        }
    }
}

/// `relic batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Folder searched recursively; files are recognised by content.
    pub input_dir: PathBuf,
    /// Where the outputs go (folders are created as needed); may lie inside the input folder,
    /// which the walk then leaves out, but may not be the input folder itself.
    pub output_dir: PathBuf,
    /// Output format.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::targets()))]
    pub to: String,
    /// Worker threads, at least 1 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Version, levels of detail and textures.
    #[command(flatten)]
    pub common: CommonArgs,
    /// Overwrite existing outputs (without it they are kept and counted as skipped).
    #[arg(long)]
    pub force: bool,
    /// One plain line per file even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
    /// One JSON object per file on standard output (input, output, status, notes), for scripts;
    /// the summary goes to standard error.
    #[arg(long)]
    pub json: bool,
}

/// Options shared by `convert` and `batch`.
#[derive(Debug, Args)]
pub struct CommonArgs {
    /// Version of the output format (see `relic formats`). Default: the version of the game file
    /// the model came from (recorded in relic's glTF), else the format's own default.
    #[arg(long, value_name = "N")]
    pub version: Option<u32>,
    /// Levels of detail to keep.
    #[arg(long, value_enum, default_value_t = Lods::All)]
    pub lod: Lods,
    /// The game's data folder, where M2 texture paths (`Creature\Gnome\Gnome.blp`) are found,
    /// without regard to letter case (repeatable; default: every folder above the model).
    #[arg(long, value_name = "DIR")]
    pub data: Vec<PathBuf>,
    /// The file for an M2 replaceable texture type, which the game picks from its tables
    /// (1 body, 2 cape, 6 hair, 8 fur, 11–13 creature skins; repeatable: --texture 11=skin.blp).
    #[arg(long = "texture", value_name = "TYPE=FILE", value_parser = parse_replaceable)]
    pub replaceable: Vec<(u32, PathBuf)>,
    /// The file for a LithTech skin slot (a piece's material index; LithTech models name no
    /// texture). Repeatable: --skin body.dtx --skin head.dtx fill slots 0 and 1; --skin 1=FILE
    /// names the slot. Given files win; without them, as the games lay out their files, slot 0 is
    /// SKINS/NAME.DTX and slot 1 SKINS/NAME_HEAD.DTX in the SKINS folder beside the MODELS folder
    /// above the model, then beside the model (NAME: the model's file name, also without a
    /// trailing _MULTI; any case). A slot found nowhere is a note.
    #[arg(long = "skin", value_name = "[SLOT=]FILE", value_parser = parse_skin)]
    pub skins: Vec<(Option<u32>, PathBuf)>,
    /// A folder of PNG/JPEG versions of the textures, matched by game path or file name
    /// (repeatable).
    #[arg(long, value_name = "DIR")]
    pub textures: Vec<PathBuf>,
    /// From a glTF to a game format: do not write the glTF's images as the game's textures (BLP
    /// beside an M2, DTX skins beside an ABC).
    #[arg(long)]
    pub no_textures: bool,
    /// The community listfile (`id;path` lines) naming the files a chunked M2 refers to by
    /// FileDataID (its .skin, .anim files and textures): each is looked for by the listfile's
    /// file name beside the model, then by its path under --data (or the folder the model's own
    /// listed path starts in). Without it: MODEL00.skin, MODELAAAA-VV.anim, ID.blp (MODEL the model's stem).
    #[arg(long, value_name = "FILE")]
    pub listfile: Option<PathBuf>,
}

impl CommonArgs {
    /// The listfile given (`--listfile`) with the data folders (`--data`), read; a note on
    /// standard error for the lines skipped.
    pub fn listed(&self) -> Result<Option<relic::Listed>, crate::CliError> {
        read_listed(self.listfile.as_deref(), &self.data)
    }

    /// Where the textures of a model are looked for.
    pub fn texture_search(&self) -> relic::textures::TextureSearch {
        relic::textures::TextureSearch {
            data: self.data.clone(),
            replaceable: self.replaceable.clone(),
            skins: skin_slots(&self.skins),
            image_dirs: self.textures.clone(),
        }
    }
}

/// The listfile at `path` (if any) with the data folders `data`, read; what it skipped is a note
/// on standard error.
pub fn read_listed(path: Option<&std::path::Path>, data: &[PathBuf]) -> Result<Option<relic::Listed>, crate::CliError> {
    let Some(path) = path else { return Ok(None) };
    let listfile = relic::read_listfile(path)?;
    if let Some(skipped) = listfile.summary() {
        eprintln!("relic: note: listfile {}: {skipped}", path.display());
    }
    Ok(Some(relic::Listed::new(listfile, data.to_vec())))
}

/// `head.dtx` → (None, head.dtx); `1=head.dtx` → (Some(1), head.dtx).
fn parse_skin(text: &str) -> Result<(Option<u32>, PathBuf), String> {
    match text.split_once('=') {
        Some((slot, file)) if !slot.is_empty() && slot.bytes().all(|b| b.is_ascii_digit()) => {
            let slot: u32 = slot.parse().map_err(|_| format!("{slot:?} is not a skin slot number"))?;
            if file.is_empty() {
                return Err("expected a file after SLOT=".into());
            }
            Ok((Some(slot), PathBuf::from(file)))
        }
        _ => Ok((None, PathBuf::from(text))),
    }
}

/// Skin files by slot: a named slot as named, the others the free slots 0, 1, … in the order
/// given (a slot some `SLOT=FILE` names is never filled by an unnamed file as well).
fn skin_slots(skins: &[(Option<u32>, PathBuf)]) -> Vec<(u32, PathBuf)> {
    let named: std::collections::BTreeSet<u32> = skins.iter().filter_map(|(slot, _)| *slot).collect();
    let mut next = 0u32;
    skins
        .iter()
        .map(|(slot, file)| match slot {
            Some(s) => (*s, file.clone()),
            None => {
                while named.contains(&next) {
                    next = next.saturating_add(1);
                }
                let slot = next;
                next = next.saturating_add(1);
                (slot, file.clone())
            }
        })
        .collect()
}

/// `11=skin.blp` → (11, skin.blp).
fn parse_replaceable(text: &str) -> Result<(u32, PathBuf), String> {
    let (kind, file) = text.split_once('=').ok_or("expected TYPE=FILE, e.g. 11=GnomeSkin.blp")?;
    let kind: u32 = kind.trim().parse().map_err(|_| format!("{kind:?} is not a texture type number"))?;
    if file.is_empty() {
        return Err("expected a file after TYPE=".into());
    }
    Ok((kind, PathBuf::from(file)))
}

/// Which levels of detail to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lods {
    /// Only the full-detail meshes.
    #[value(name = "0")]
    Zero,
    /// Every level.
    All,
}

/// The versions each format writes, for `--version`'s help: `abc: 6, 9–13; m2: 256–263; …`.
pub fn version_help() -> String {
    let per_format: Vec<String> = relic::Registry::builtin()
        .writers()
        .map(|f| {
            let note = if f.versions.note.is_empty() { String::new() } else { format!(" ({})", f.versions.note) };
            format!("{}: {}{note}", f.name, Versions::list(f.versions.write))
        })
        .collect();
    format!(
        "Version of the output format, checked before anything is read: {} (default: the input's own version when it is of the same format, else the format's usual one).",
        per_format.join("; ")
    )
}

/// The help's opening line: what relic reads, with the versions, as the registry says.
pub fn about() -> String {
    let registry = relic::Registry::builtin();
    let list = |formats: Vec<&relic::FormatEntry>| {
        let each: Vec<String> =
            formats.iter().map(|f| format!("{} {}", f.label(), Versions::list(f.versions.read))).collect();
        each.join("; ")
    };
    format!(
        "relic: brings the skeletal models of classic games to glTF 2.0 and back. Models: {}. Textures: {}.",
        list(registry.models().collect()),
        list(registry.textures().collect())
    )
}

/// The command with its run-time help (what it reads, version lists) filled in.
pub fn command() -> clap::Command {
    let help = version_help();
    let about = about();
    let long_about = format!(
        "{about}\n\n`relic formats` names each format's games and what it writes.\n\nExit codes: 0 success, 1 a file failed, 2 bad usage."
    );
    Cli::command()
        .about(about)
        .long_about(long_about)
        .mut_subcommand("convert", |c| c.mut_arg("version", |a| a.help(help.clone())))
        .mut_subcommand("batch", |c| c.mut_arg("version", |a| a.help(help.clone())))
}

/// Parses the process's arguments (exits 2 with clap's message on bad usage, 0 for `--help`).
pub fn parse() -> Cli {
    let matches = command().get_matches();
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skins_fill_slots_in_order_unless_named() {
        let given: Vec<(Option<u32>, PathBuf)> =
            ["body.dtx", "1=head.dtx", "arm.dtx", "C:=odd.dtx"].iter().map(|t| parse_skin(t).unwrap()).collect();
        let slots = skin_slots(&given);
        let expect = [(0, "body.dtx"), (1, "head.dtx"), (2, "arm.dtx"), (3, "C:=odd.dtx")];
        assert_eq!(slots, expect.map(|(s, f)| (s, PathBuf::from(f))));
        assert!(parse_skin("1=").is_err());
    }
}
