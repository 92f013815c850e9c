//! M2 → common model.
use relic_core::{Model, ReadError};
use crate::file::M2File;
/// Extras.
#[derive(Debug, Clone, PartialEq)]
pub struct M2Extras {}
/// Name text.
pub fn name_text(name: &[u8]) -> String { relic_core::text::decode_cp1252(name.split(|&b| b == 0).next().unwrap_or_default()) }
/// To IR.
pub fn to_ir(_f: &M2File) -> Result<Model, ReadError> { Ok(Model::default()) }
