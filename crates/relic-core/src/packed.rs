//! Serde for the format crates' extras' arrays of plain records: base64 of their bytes
//! (little-endian, the records' own layout) instead of a JSON list of numbers, which costs several
//! times the bytes (an ABC weight as JSON is ~90 characters, packed 27; an M2 view's triangle
//! list as JSON ~5.5 characters an index, packed 2.7) and the time to print and parse them.
//! Reading also takes the JSON list an older export wrote. `#[serde(with = "relic_core::packed")]`
//! on a `Vec` of [`Pod`] records, [`lists`] on a `Vec` of them.

// The records are written as their bytes in memory, which are the little-endian bytes the
// extras promise only on a little-endian target: a big-endian build would write extras no other
// build reads back, so it is refused rather than made silently.
#[cfg(target_endian = "big")]
compile_error!("relic_core::packed writes records as their bytes in memory: little-endian targets only");

use bytemuck::Pod;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// The two forms an array takes in the JSON.
#[derive(Deserialize)]
#[serde(untagged)]
enum Form<T> {
    Packed(String),
    List(Vec<T>),
}

/// The records of a base64 string, in one copy as the file readers take them
/// ([`crate::binary::pod_vec`]); `None` if it is not base64 of whole records.
fn unpack<T: Pod>(text: &str) -> Option<Vec<T>> {
    let bytes = crate::base64::decode(text.as_bytes())?;
    let size = std::mem::size_of::<T>().max(1);
    if !bytes.len().is_multiple_of(size) {
        return None;
    }
    let count = (bytes.len() / size) as u64;
    crate::binary::pod_vec(&mut std::io::Cursor::new(&bytes), binrw::Endian::Little, (count,)).ok()
}

/// Writes the records as one base64 string.
pub fn serialize<S: Serializer, T: Pod>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::base64::encode(bytemuck::cast_slice(v)))
}

/// Reads a base64 string of records, or a JSON list of them.
pub fn deserialize<'de, D: Deserializer<'de>, T: Pod + Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    match Form::<T>::deserialize(d)? {
        Form::List(v) => Ok(v),
        Form::Packed(text) => {
            unpack(&text).ok_or_else(|| D::Error::custom("packed array: not base64 of whole records"))
        }
    }
}

/// The same for a list of arrays, one string per array:
/// `#[serde(with = "relic_core::packed::lists")]` on a `Vec<Vec<T>>`.
pub mod lists {
    use super::{Form, Pod, unpack};
    use serde::de::Error as _;
    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes each array as one base64 string.
    pub fn serialize<S: Serializer, T: Pod, L: AsRef<[T]>>(v: &[L], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for list in v {
            seq.serialize_element(&crate::base64::encode(bytemuck::cast_slice(list.as_ref())))?;
        }
        seq.end()
    }

    /// Reads each array from a base64 string or a JSON list.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Pod + Deserialize<'de>>(d: D) -> Result<Vec<Vec<T>>, D::Error> {
        let forms = Vec::<Form<T>>::deserialize(d)?;
        forms
            .into_iter()
            .map(|f| match f {
                Form::List(v) => Ok(v),
                Form::Packed(text) => {
                    unpack(&text).ok_or_else(|| D::Error::custom("packed array: not base64 of whole records"))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Holder {
        #[serde(with = "super")]
        values: Vec<u16>,
        #[serde(with = "super::lists")]
        lists: Vec<Vec<[u8; 3]>>,
    }

    #[test]
    fn packed_and_listed_forms_read_back() {
        let h = Holder { values: vec![1, 2, 65535], lists: vec![vec![[1, 2, 3]], vec![]] };
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(json, r#"{"values":"AQACAP//","lists":["AQID",""]}"#);
        assert_eq!(serde_json::from_str::<Holder>(&json).ok(), Some(h));
        let old: Option<Holder> = serde_json::from_str(r#"{"values":[7],"lists":[[[1,2,3]]]}"#).ok();
        assert_eq!(old, Some(Holder { values: vec![7], lists: vec![vec![[1, 2, 3]]] }));
        assert!(serde_json::from_str::<Holder>(r#"{"values":"AQ","lists":[]}"#).is_err());
    }

    /// Records wider than a byte come back bit for bit, as many as were written.
    #[test]
    fn wide_records_read_back_exactly() {
        #[derive(serde::Serialize, serde::Deserialize)]
        struct Floats(#[serde(with = "super")] Vec<[f32; 3]>);
        let values: Vec<[f32; 3]> = (0..1000).map(|i| [i as f32 * 0.1, -0.0, f32::MAX / (i + 1) as f32]).collect();
        let back: Floats = serde_json::from_str(&serde_json::to_string(&Floats(values.clone())).unwrap()).unwrap();
        let bits = |v: &[[f32; 3]]| v.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back.0), bits(&values));
    }
}
