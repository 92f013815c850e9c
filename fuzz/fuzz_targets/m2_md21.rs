//! M2 models of Wrath and later as a whole file, plain (`MD20`, 264 and 272) or chunked (`MD21`,
//! 272 and 274): the bytes are the model, beside the `.skin` files of the fixture
//! `fixtures/m2-md21/v274_chunked.m2` and the Legion companions of `v274_skeletal.m2` under its
//! name (its `.skel`, the parent `1000301.skel`, Stand's split `.anim`, its `.bone`), so that a
//! model naming a skeleton, `.anim` or `.bone` files reads them. A model the reader accepts writes back, its files re-read
//! equal and write the same bytes again; its common model goes through glTF and every M2 version
//! (274, 264 and 256: porting down and up) and reads back valid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relic_core::format::Input;
use relic_fuzz::{CountingAllocator, bounded, fixed_point, model_checks, same, writers};
use relic_m2::{
    md21,
    wrath::{self, SiblingBytes},
};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const STEM: &str = "v274_chunked";
const SKINS: [&[u8]; 4] = [
    include_bytes!("../../fixtures/m2-md21/v274_chunked00.skin"),
    include_bytes!("../../fixtures/m2-md21/v274_chunked01.skin"),
    include_bytes!("../../fixtures/m2-md21/v274_chunked02.skin"),
    include_bytes!("../../fixtures/m2-md21/v274_chunked03.skin"),
];

/// The skeletal fixture's companions, by suffix after the stem.
const COMPANIONS: [(&str, &[u8]); 3] = [
    (".skel", include_bytes!("../../fixtures/m2-md21/v274_skeletal.skel")),
    ("0000-00.anim", include_bytes!("../../fixtures/m2-md21/v274_skeletal0000-00.anim")),
    ("_00.bone", include_bytes!("../../fixtures/m2-md21/v274_skeletal_00.bone")),
];
/// The parent skeleton (found by its FileDataID, not by the stem).
const PARENT: (&str, &[u8]) = ("1000301.skel", include_bytes!("../../fixtures/m2-md21/1000301.skel"));

/// The fixture's skins and companions with `files` written beside a model (which replace those of
/// the same name), as siblings of `STEM.m2`; the parent skeleton, never written, stays.
fn siblings(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> SiblingBytes {
    let fixed = SKINS
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("{i:02}.skin"), s.to_vec()))
        .chain(COMPANIONS.iter().map(|(suffix, b)| (suffix.to_string(), b.to_vec())));
    let mut all: Vec<(String, Vec<u8>)> = fixed.map(|(suffix, bytes)| (format!("{STEM}{suffix}"), bytes)).collect();
    for (suffix, bytes) in files {
        let name = format!("{STEM}{suffix}");
        all.retain(|(n, _)| *n != name);
        all.push((name, bytes));
    }
    all.push((PARENT.0.to_string(), PARENT.1.to_vec()));
    SiblingBytes(all)
}

fuzz_target!(|data: &[u8]| {
    let skins = siblings([]);
    let name = format!("{STEM}.m2");
    let input = Input { bytes: data, name: &name, siblings: &skins };
    let _ = bounded("info_input", data, |_| relic_m2::info_input(&input));
    if data.starts_with(b"MD21") {
        if let Ok(file) = bounded("md21::read", data, |_| md21::read(&input)) {
            let (bytes, files) = md21::write(&file).unwrap_or_else(|e| panic!("an accepted model does not write: {e}"));
            let again = siblings(files.into_iter().map(|f| (f.suffix, f.bytes)));
            let back = md21::read(&Input { bytes: &bytes, name: &name, siblings: &again })
                .unwrap_or_else(|e| panic!("the re-written model does not read: {e}"));
            same("md21", &file.chunks, &back.chunks);
            same("md21 model", &file.model.file, &back.model.file);
            fixed_point("md21", &bytes, md21::write(&back).map(|(b, _)| b));
        }
    } else if let Ok(file) = bounded("wrath::read", data, |_| wrath::read(&input)) {
        let (bytes, files) = wrath::write(&file).unwrap_or_else(|e| panic!("an accepted model does not write: {e}"));
        let again = siblings(files.into_iter().map(|f| (f.suffix, f.bytes)));
        let back = wrath::read(&Input { bytes: &bytes, name: &name, siblings: &again })
            .unwrap_or_else(|e| panic!("the re-written model does not read: {e}"));
        same("wrath model", &file.file, &back.file);
        fixed_point("wrath", &bytes, wrath::write(&back).map(|(b, _)| b));
    }
    if let Ok(model) = bounded("read_input", data, |_| relic_m2::read_input(&input)) {
        model_checks(&model.value, &writers("m2", &[None, Some(274), Some(264), Some(256)]));
    }
});
