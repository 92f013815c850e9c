//! M2 `.skin` files of Wrath and later: the bytes are `v264_skins00.skin` beside the fixture
//! model `fixtures/m2-wrath/v264_skins.m2` (the other skins as generated). A skin the reader
//! accepts writes back, the model and its skins re-read equal, and its common model maps.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_core::format::Input;
use relic_fuzz::{CountingAllocator, bounded, same};
use relic_m2::wrath::{self, SiblingBytes};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const MODEL: &[u8] = include_bytes!("../../fixtures/m2-wrath/v264_skins.m2");

fuzz_target!(|data: &[u8]| {
    let siblings = SiblingBytes(vec![("v264_skins00.skin".into(), data.to_vec())]);
    let input = Input { bytes: MODEL, name: "v264_skins.m2", siblings: &siblings };
    let Ok(model) = bounded("wrath::read", data, |_| wrath::read(&input)) else { return };
    let (bytes, files) = wrath::write(&model).unwrap_or_else(|e| panic!("an accepted model does not write: {e}"));
    let again = SiblingBytes(files.into_iter().map(|f| (format!("v264_skins{}", f.suffix), f.bytes)).collect());
    let back = wrath::read(&Input { bytes: &bytes, name: "v264_skins.m2", siblings: &again })
        .unwrap_or_else(|e| panic!("the re-written model does not read: {e}"));
    same("m2 skin", &model.skins, &back.skins);
    let _ = bounded("read_input", data, |_| relic_m2::read_input(&input));
});
