//! The v9–v13 `ChildModels` section (abc.md §4.4): `u32 Count` (including this file's own
//! entry), the own entry (no name), then `Count − 1` base models whose animations this model uses.

use binrw::binrw;
use relic_core::binary::{LenString, counted_args, pod_vec};

use crate::file::common::{NodeKey, pods};

/// `ChildModels` section body.
#[binrw]
#[brw(little)]
#[br(import(node_count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChildModels {
    #[br(temp)]
    #[bw(calc = self.count())]
    count: u32,
    /// Entry 0: this file itself.
    #[br(if(count >= 1), args(node_count))]
    pub self_entry: Option<SelfEntry>,
    /// Entries 1…: the base models whose animations this model uses.
    #[br(parse_with = counted_args, args(u64::from(count.saturating_sub(1)), 6 + 28 * u64::from(node_count), (node_count,)))]
    pub children: Vec<ChildModel>,
}

impl ChildModels {
    /// `Count` as written: the entries including the self entry.
    pub(crate) fn count(&self) -> u32 {
        u32::from(self.self_entry.is_some()) + self.children.len() as u32
    }
}

/// Entry 0 of `ChildModels`: this file.
#[binrw]
#[brw(little)]
#[br(import(node_count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SelfEntry {
    /// This file's save counter (ModelEdit increments it on every save).
    pub save_index: u32,
    /// One translation + rotation per node (identity in every known file).
    #[br(parse_with = pod_vec, args(u64::from(node_count),))]
    #[bw(write_with = pods)]
    #[serde(with = "relic_core::packed")]
    pub relations: Vec<NodeKey>,
}

/// A base model whose animations this model uses.
#[binrw]
#[brw(little)]
#[br(import(node_count: u32))]
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChildModel {
    /// File name (`basemodel.abc`, `/goodman.abc`).
    #[serde(with = "crate::file::common::len_string")]
    pub file_name: LenString,
    /// The child file's save index when it was bound (a mismatch means "out of date").
    pub save_index: u32,
    /// Per-node offset of the child skeleton (28 bytes each, also in v13).
    #[br(parse_with = pod_vec, args(u64::from(node_count),))]
    #[bw(write_with = pods)]
    #[serde(with = "relic_core::packed")]
    pub relations: Vec<NodeKey>,
}
