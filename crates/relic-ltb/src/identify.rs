//! What a file named `.ltb` is (ltb.md §1): a PC model relic reads, or something it names and
//! refuses — a model of another platform, a render style or a lone render object (the other file
//! types of the same container), a model version outside 23–25, or a LithTech world file renamed
//! `.ltb` (they exist on mod sites, starting `42 00 00 00`).

use relic_core::{ReadError, ReadErrorKind};
use relic_lithtech::lzma;

/// What the first bytes say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum What {
    /// A PC (D3D) model of this model version (read if 23–25).
    Model(u32),
    /// Something else with this container, named; refused.
    Other {
        /// The number `relic info` shows as its version (file type, or world version).
        version: u32,
        /// What it is, in words.
        what: String,
    },
}

/// The world-file version that starts the LithTech worlds found renamed `.ltb`.
const WORLD_VERSION: u32 = 0x42;

/// Recognises the file from its first bytes (decoding only the first 24 payload bytes of a
/// wrapped one); `None` if it is not an LTB container at all.
pub(crate) fn what(bytes: &[u8]) -> Option<What> {
    if bytes.get(..4)? == WORLD_VERSION.to_le_bytes() {
        let what = format!("a LithTech world file (world version {WORLD_VERSION}), not a model");
        return Some(What::Other { version: WORLD_VERSION, what });
    }
    let peeked;
    let head = if lzma::is_wrapped(bytes) {
        peeked = lzma::peek(bytes, 24, &lzma::Limits::default())?.0;
        peeked.as_slice()
    } else {
        bytes
    };
    let head = head.get(..24)?;
    let (file_type, pad, ltb_version) =
        (*head.first()?, *head.get(1)?, u16::from_le_bytes([*head.get(2)?, *head.get(3)?]));
    let version = u32::from_le_bytes(head.get(20..24)?.try_into().ok()?);
    if pad != 0 || !(1..=7).contains(&file_type) || !(1..=32).contains(&ltb_version) {
        return None;
    }
    let kind = match file_type {
        1 if ltb_version == 9 => return Some(What::Model(version)),
        1 => format!(
            "a PC model LTB of container version {ltb_version} (every PC model has 9; the engine refuses others)"
        ),
        2 => "a PlayStation 2 model LTB (file type 2); relic reads PC (D3D) models".into(),
        3 => "an Xbox model LTB (file type 3); relic reads PC (D3D) models".into(),
        4 => "an LTB container of an ABC model (file type 4); relic reads PC (D3D) models".into(),
        5 => "a D3D render style (file type 5), not a model".into(),
        6 => "a PlayStation 2 render style (file type 6), not a model".into(),
        _ => "a lone D3D render object (file type 7: one LOD exported on its own), not a model".into(),
    };
    Some(What::Other { version: u32::from(file_type), what: kind })
}

/// The error for a file that is not a PC model of a version relic reads (`None` if it is one).
pub(crate) fn refusal(what: &What) -> Option<ReadError> {
    let (at, path, version, reason) = match what {
        What::Model(v) if crate::file::VERSIONS.contains(v) => return None,
        What::Model(v) => {
            (20, "header.version", *v, "relic reads LTB model versions 23–25 (the engine's range)".to_string())
        }
        What::Other { version, what } => (0, "container", *version, what.clone()),
    };
    Some(ReadError::at(at, path, ReadErrorKind::UnsupportedVersion { version, reason }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(file_type: u8, ltb_version: u16, version: u32) -> Vec<u8> {
        let mut b = vec![file_type, 0];
        b.extend_from_slice(&ltb_version.to_le_bytes());
        b.extend_from_slice(&[0; 16]);
        b.extend_from_slice(&version.to_le_bytes());
        b
    }

    #[test]
    fn models_and_other_files_are_told_apart() {
        assert_eq!(what(&head(1, 9, 25)), Some(What::Model(25)));
        assert!(refusal(&What::Model(25)).is_none());
        assert!(refusal(&What::Model(22)).is_some_and(|e| e.to_string().contains("23–25")));
        let ps2 = what(&head(2, 9, 25)).unwrap();
        assert!(refusal(&ps2).is_some_and(|e| e.to_string().contains("PlayStation 2 model")));
        let world = what(&[0x42, 0, 0, 0, 1, 2, 3, 4]).unwrap();
        assert!(refusal(&world).is_some_and(|e| e.to_string().contains("world")));
        assert_eq!(what(b"MD20 an M2 file of some length"), None);
        assert_eq!(what(&head(9, 9, 25)), None);
        assert_eq!(what(&[1, 0, 9]), None);
    }
}
