//! Common model → M2.
use relic_core::{Converted, Model, WriteError, WriteOptions};
use crate::file::M2File;
/// From IR.
pub fn from_ir(_m: &Model, _o: &WriteOptions) -> Result<Converted<M2File>, WriteError> { Ok(Converted::lossless(M2File::default())) }
