//! M2 `.anim` files of Wrath and later: the bytes are the `.anim` of sequence 0 of the fixture
//! model `fixtures/m2-wrath/v264_external.m2` (offsets from byte 0 of the `.anim`). An `.anim`
//! the reader accepts writes back into one that re-reads to the same tracks, and the model maps.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_core::format::Input;
use relic_fuzz::{CountingAllocator, bounded, same};
use relic_m2::wrath::{self, SiblingBytes};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const MODEL: &[u8] = include_bytes!("../../fixtures/m2-wrath/v264_external.m2");
const SKIN: &[u8] = include_bytes!("../../fixtures/m2-wrath/v264_external00.skin");
const ANIM: &str = "v264_external0000-00.anim";

fuzz_target!(|data: &[u8]| {
    let siblings = SiblingBytes(vec![("v264_external00.skin".into(), SKIN.to_vec()), (ANIM.into(), data.to_vec())]);
    let input = Input { bytes: MODEL, name: "v264_external.m2", siblings: &siblings };
    let Ok(model) = bounded("wrath::read", data, |_| wrath::read(&input)) else { return };
    let (bytes, files) = wrath::write(&model).unwrap_or_else(|e| panic!("an accepted model does not write: {e}"));
    let again = SiblingBytes(files.into_iter().map(|f| (format!("v264_external{}", f.suffix), f.bytes)).collect());
    let back = wrath::read(&Input { bytes: &bytes, name: "v264_external.m2", siblings: &again })
        .unwrap_or_else(|e| panic!("the re-written model does not read: {e}"));
    same("m2 anim", &model.file, &back.file);
    let _ = bounded("read_input", data, |_| relic_m2::read_input(&input));
});
