//! Files relic recognises by their bytes but does not read: when no format of the registry reads
//! a file, these say what it is ("LZMA-compressed data, as CrossFire stores its LithTech LTB
//! models") instead of only that it is not a model. They are consulted after every registered
//! format, so a format that reads one of them takes precedence; the LTB entries apply only while
//! the `ltb` feature (relic-ltb) is off.
//!
//! | what | recognised by | source |
//! |---|---|---|
//! | LZMA-compressed data (CrossFire's LTB models) | an LZMA-alone header: properties byte below 225, a dictionary of 2^n or 3·2^n bytes (at least 4 KiB), an unpacked size, and the range coder's first byte 0 | specs/ltb.md §2; every CrossFire sample |
//! | LithTech LTB model (PC) | byte 0 = 1 (D3D model), u16 at 2 = 9, model version (u32 at 20) 23–25 | specs/ltb.md §1 |
//! | LithTech LTA model text | `(lt-model-` after leading white space | the LTA twin of INTHERO_ACTION.ABC |
//! | LithTech world | a world version (u32 at 0: 56, 57, 66, 70, 85 or 127) and an object-data offset (u32 at 4) inside the file | specs/ltb.md §1 (worlds renamed `.ltb` start `42 00 00 00`); the engines' `.dat` versions |

/// A kind of file relic recognises but does not read.
#[derive(Debug, Clone, Copy)]
pub struct Foreign {
    /// What the file is, for people (`LithTech LTA model text`).
    pub what: &'static str,
    /// Recognises it by its bytes.
    pub recognise: fn(&[u8]) -> bool,
}

/// Every kind of file relic recognises without reading it, most specific first.
pub static FOREIGN: &[Foreign] = &[
    #[cfg(not(feature = "ltb"))]
    Foreign {
        what: "a LithTech LTB model (PC) (not read by this build: the `ltb` feature is off)",
        recognise: ltb_model,
    },
    #[cfg(not(feature = "ltb"))]
    Foreign {
        what: "LZMA-compressed data, as CrossFire stores its LithTech LTB models (not read by this build: the `ltb` feature is off)",
        recognise: lzma_alone,
    },
    Foreign { what: "LithTech LTA model text (what the Model Packer compiles into an LTB)", recognise: lta_model },
    Foreign { what: "a LithTech world", recognise: lithtech_world },
];

/// What `bytes` are, if they are a kind of file relic recognises without reading it (a format
/// of the registry that names its own unread files comes first: [`crate::Registry::describe`]).
pub fn describe(bytes: &[u8]) -> Option<&'static str> {
    FOREIGN.iter().find(|f| (f.recognise)(bytes)).map(|f| f.what)
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// An uncompressed LTB of the D3D (PC) model type, in a version the engine accepts.
#[cfg_attr(feature = "ltb", allow(dead_code))]
fn ltb_model(bytes: &[u8]) -> bool {
    bytes.first() == Some(&1)
        && u16_at(bytes, 2) == Some(9)
        && u32_at(bytes, 20).is_some_and(|v| (23..=25).contains(&v))
}

/// An LZMA-alone (`.lzma`) stream: 13 header bytes, then range-coded data whose first byte is 0.
/// The properties byte is lc + 9·(lp + 5·pb) (below 225) and above 20, the rule CrossFire's readers
/// tell it from an LTB's file type by (0x5D, the LZMA SDK's default, in every sample); the
/// unpacked size is at most 4 GiB, or unknown (all ones).
#[cfg_attr(feature = "ltb", allow(dead_code))]
fn lzma_alone(bytes: &[u8]) -> bool {
    let Some(&properties) = bytes.first() else { return false };
    let Some(dictionary) = u32_at(bytes, 1) else { return false };
    let power = |d: u32| d.is_power_of_two() || (d.is_multiple_of(3) && (d / 3).is_power_of_two());
    let size = bytes.get(5..13).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
    let size = size.is_some_and(|s| s == u64::MAX || (1..=1 << 32).contains(&s));
    (21..225).contains(&properties) && dictionary >= 1 << 12 && power(dictionary) && size && bytes.get(13) == Some(&0)
}

/// LTA text: the model's node list as an S-expression, `(lt-model-0 …`.
fn lta_model(bytes: &[u8]) -> bool {
    bytes.trim_ascii_start().starts_with(b"(lt-model-")
}

/// A LithTech world (`.dat`): the versions of LithTech 1.0 (56), 1.5 (57), 2.x (66), Talon (70),
/// Jupiter (85) and KISS Psycho Circus (127), then the offset of the object data, inside the file.
fn lithtech_world(bytes: &[u8]) -> bool {
    let version = u32_at(bytes, 0).is_some_and(|v| matches!(v, 56 | 57 | 66 | 70 | 85 | 127));
    let objects = u32_at(bytes, 4).is_some_and(|at| at >= 8 && (at as usize) < bytes.len());
    version && objects
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_told_from_the_others_and_from_noise() {
        let mut ltb = vec![1, 0, 9, 0];
        ltb.extend([0; 16]);
        ltb.extend(25u32.to_le_bytes());
        assert!(ltb_model(&ltb) && !lzma_alone(&ltb) && !lta_model(&ltb) && !lithtech_world(&ltb));
        let mut lzma = vec![0x5D, 0, 0, 0, 1];
        lzma.extend(556_055u64.to_le_bytes());
        lzma.extend([0, 0x7F, 0x12]);
        assert!(lzma_alone(&lzma) && !ltb_model(&lzma) && !lithtech_world(&lzma));
        assert_eq!(describe(b"\n(lt-model-0 \n\t(hierarchy").map(|w| w.starts_with("LithTech LTA")), Some(true));
        let mut world = 66u32.to_le_bytes().to_vec();
        world.extend(16u32.to_le_bytes());
        world.extend([0; 24]);
        assert_eq!(describe(&world), Some("a LithTech world"));
        // A world version whose object data would lie past the end is not a world.
        world[4] = 200;
        assert!(!lithtech_world(&world));
        for other in [&b""[..], b"hello", b"MD20\x00\x01\x00\x00", b"(lt-mode"] {
            assert_eq!(describe(other), None, "{other:?}");
        }
        // A NOD (version 7, then counts and a name) is no LZMA stream, though its first bytes
        // could be an LZMA header's.
        let nod = b"\x07\0\0\0\x01\0\0\0tri\0\0\0\0\0\0\0";
        assert_eq!(describe(nod), None);
    }
}
