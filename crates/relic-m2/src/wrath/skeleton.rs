//! The skeleton of a chunked model that names a `.skel` (`SKID`, m2-md21.md §7): found beside the
//! model, followed to its parents (`SKPD`), and merged into the model — its global loops,
//! sequences, bones, attachments and their lookups supersede the `MD20` block's own arrays,
//! which are kept as read ([`OwnArrays`]) so that the `.m2` is written back as it was.

use relic_core::ReadError;
use relic_core::format::Input;
use serde::{Deserialize, Serialize};

use crate::companions::{self, Found};
use crate::file::array::M2Array;
use crate::file::wrath::{WrathAttachment, WrathBone, WrathFile, WrathSequence};
use crate::skel::{Skel, SkelChunks, SkeletonSequences};

/// Most parents followed from a `.skel` (a chain longer than this, or a cycle, is a note).
const MAX_PARENTS: usize = 4;

/// The `.skel` file of the model named `stem` (`<stem>.skel`, the name CASC extractors give), or
/// of the skeleton with FileDataID `id` (`<id>.skel`, named by its id as three-m2loader names the
/// files it loads: no listfile is read here).
pub fn skel_name(stem: &str, id: Option<u32>) -> String {
    match id {
        Some(id) => format!("{id}.skel"),
        None => format!("{stem}.skel"),
    }
}

/// The `MD20` block's own arrays that a skeleton supersedes, as read.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct OwnArrays {
    /// Global sequences.
    pub global_sequences: M2Array<u32>,
    /// Sequences.
    pub sequences: M2Array<WrathSequence>,
    /// Sequence lookup.
    pub sequence_lookup: M2Array<i16>,
    /// Bones.
    pub bones: M2Array<WrathBone>,
    /// Key-bone lookup.
    pub key_bone_lookup: M2Array<i16>,
    /// Attachments.
    pub attachments: M2Array<WrathAttachment>,
    /// Attachment lookup.
    pub attachment_lookup: M2Array<i16>,
}

/// Takes the arrays a `.skel` supersedes out of a file and puts them back, the fields named once.
macro_rules! own_arrays {
    ($($field:ident),* $(,)?) => {
        impl OwnArrays {
            /// Takes the arrays out of `file` (leaving them empty).
            fn take(file: &mut WrathFile) -> Self {
                OwnArrays { $($field: std::mem::take(&mut file.$field)),* }
            }

            /// `file` with these arrays in place of its own.
            pub(crate) fn put_into(&self, file: &WrathFile) -> WrathFile {
                let mut f = file.clone();
                $(f.$field = self.$field.clone();)*
                f
            }
        }
    };
}

own_arrays!(global_sequences, sequences, sequence_lookup, bones, key_bone_lookup, attachments, attachment_lookup);

/// The skeleton a model was read with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skeleton {
    /// The model's `.skel`.
    pub skel: Skel,
    /// Its parents found (`SKPD`), nearest first.
    pub parents: Vec<Skel>,
    /// The `MD20` block's own arrays as read (superseded in the model by the skeleton's).
    pub own: OwnArrays,
}

impl Skeleton {
    /// The model's `.skel` with the model's arrays (`file`) in the chunks it has (unchanged for
    /// a model read and not edited).
    pub(crate) fn skel_of(&self, file: &WrathFile) -> Skel {
        let mut skel = self.skel.clone();
        for c in &mut skel.chunks {
            match &mut c.data {
                crate::skel::SkelData::Sequences(s) => {
                    s.global_loops = file.global_sequences.clone();
                    s.sequences = file.sequences.clone();
                    s.sequence_lookup = file.sequence_lookup.clone();
                }
                crate::skel::SkelData::Bones(b) => {
                    b.records = file.bones.clone();
                    b.lookup = file.key_bone_lookup.clone();
                }
                crate::skel::SkelData::Attachments(a) => {
                    a.records = file.attachments.clone();
                    a.lookup = file.attachment_lookup.clone();
                }
                _ => {}
            }
        }
        skel
    }
}

/// A `.skel` and its parents, split into chunks, with what was missing.
pub(crate) struct Chain {
    /// The model's `.skel` first, then each parent found.
    pub(crate) skels: Vec<SkelChunks>,
    /// Parents named and not found, or not followed.
    pub(crate) notes: Vec<String>,
}

/// Finds the model's `.skel` (`None` if it is not beside the model) and its parents.
pub(crate) fn load_chain(input: &Input<'_>, id: u32) -> Result<Option<Chain>, ReadError> {
    let conventional = skel_name(input.stem(), None);
    let Some(Found { name, bytes }) = companions::read(input, id, &conventional)? else { return Ok(None) };
    let mut skels = vec![SkelChunks::read(&name, &bytes)?];
    let mut notes = Vec::new();
    let mut seen = Vec::new();
    while let Some(id) = skels.last().and_then(SkelChunks::parent) {
        if seen.contains(&id) || skels.len() > MAX_PARENTS {
            notes.push(format!(
                "the parent skeleton {id} (SKPD) is not followed: a cycle or more than {MAX_PARENTS} parents"
            ));
            break;
        }
        seen.push(id);
        let conventional = skel_name(input.stem(), Some(id));
        match companions::read(input, id, &conventional)? {
            Some(Found { name, bytes }) => skels.push(SkelChunks::read(&name, &bytes)?),
            None => {
                let parent = companions::wanted(input, id, &conventional);
                notes.push(format!(
                    "the parent skeleton with FileDataID {id} (SKPD of {}) was looked for as {parent} and not found",
                    skels.last().map_or("", |s| s.name())
                ));
                break;
            }
        }
    }
    Ok(Some(Chain { skels, notes }))
}

impl Chain {
    /// The sequences chunk the model uses: the nearest skeleton's that has one.
    pub(crate) fn sequences(&self) -> Result<Option<SkeletonSequences>, ReadError> {
        for s in &self.skels {
            if let Some(sks1) = s.sequences()? {
                return Ok(Some(sks1));
            }
        }
        Ok(None)
    }
}

/// Merges the skeleton into `file` (read with its own arrays): for each of sequences, bones and
/// attachments the nearest skeleton's that has them, else the `MD20` block's own (a note with
/// the counts when a parent that might have had them was not found). Returns the skeleton with
/// the own arrays.
pub(crate) fn merge(
    file: &mut WrathFile,
    mut skels: Vec<Skel>,
    missing_parent: bool,
    notes: &mut Vec<String>,
) -> Option<Skeleton> {
    if skels.is_empty() {
        return None;
    }
    let own = OwnArrays::take(file);
    let sequences = skels.iter().find_map(Skel::sequences);
    let bones = skels.iter().find_map(Skel::bones);
    let attachments = skels.iter().find_map(Skel::attachments);
    let lacking: Vec<String> = [
        ("sequences", sequences.is_none(), own.sequences.len()),
        ("bones", bones.is_none(), own.bones.len()),
        ("attachments", attachments.is_none(), own.attachments.len()),
    ]
    .into_iter()
    .filter(|(_, lacks, _)| *lacks)
    .map(|(what, _, n)| format!("{what} (the MD20 block's {n} used)"))
    .collect();
    let chosen = OwnArrays {
        global_sequences: sequences.map_or_else(|| own.global_sequences.clone(), |s| s.global_loops.clone()),
        sequences: sequences.map_or_else(|| own.sequences.clone(), |s| s.sequences.clone()),
        sequence_lookup: sequences.map_or_else(|| own.sequence_lookup.clone(), |s| s.sequence_lookup.clone()),
        bones: bones.map_or_else(|| own.bones.clone(), |b| b.records.clone()),
        key_bone_lookup: bones.map_or_else(|| own.key_bone_lookup.clone(), |b| b.lookup.clone()),
        attachments: attachments.map_or_else(|| own.attachments.clone(), |a| a.records.clone()),
        attachment_lookup: attachments.map_or_else(|| own.attachment_lookup.clone(), |a| a.lookup.clone()),
    };
    *file = chosen.put_into(file);
    if missing_parent && !lacking.is_empty() {
        notes.push(format!("without its parent skeleton the model has no SKS1/SKB1/SKA1 for: {}", lacking.join(", ")));
    }
    let skel = skels.remove(0);
    notes.extend(skel.notes.iter().cloned());
    for p in &skels {
        notes.extend(p.notes.iter().cloned());
    }
    notes.push(format!(
        "{}: {} sequences, {} global loops, {} bones, {} attachments (superseding the MD20 block's {}, {}, {}, {})",
        skel.name,
        file.sequences.len(),
        file.global_sequences.len(),
        file.bones.len(),
        file.attachments.len(),
        own.sequences.len(),
        own.global_sequences.len(),
        own.bones.len(),
        own.attachments.len()
    ));
    Some(Skeleton { skel, parents: skels, own })
}
