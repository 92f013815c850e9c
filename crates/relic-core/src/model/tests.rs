use super::*;

#[test]
fn strongest_keeps_the_largest_in_order_and_renormalises() {
    let inf = |bone, weight| Influence { bone, weight };
    let skin = Skin::from_vertices([
        vec![inf(0, 0.1), inf(1, 0.3), inf(2, 0.1), inf(3, 0.2), inf(4, 0.2), inf(5, 0.1)],
        vec![inf(7, 0.5), inf(8, 0.5)],
    ]);
    // Ties (0.1 ×3) go to the earliest; the kept ones stay in stored order.
    let kept = skin.strongest(0, 4);
    assert_eq!(kept.iter().map(|i| i.bone).collect::<Vec<_>>(), [0, 1, 3, 4]);
    assert!((kept.iter().map(|i| i.weight).sum::<f32>() - 1.0).abs() < 1e-6);
    assert!((kept[1].weight - 0.375).abs() < 1e-6);
    assert_eq!(skin.strongest(1, 4), skin.vertex(1));
    assert!(skin.strongest(9, 4).is_empty());
}

#[test]
fn recorded_version_is_the_source_then_the_original_of_that_format() {
    let abc = FormatId::new("abc");
    let gltf = FormatId::new("gltf");
    let mut model = Model::default();
    assert_eq!(model.recorded_version(abc), None);
    // A glTF without relic's extras: the source is the glTF, the record names the game file.
    model.source = Some(SourceInfo { format: gltf, version: 2 });
    model.original = Some(Original { format: "abc".into(), version: 6, ..Default::default() });
    assert_eq!(model.recorded_version(abc), Some(6));
    assert_eq!(model.recorded_version(FormatId::new("m2")), None);
    // The source wins where it is the format asked for.
    model.source = Some(SourceInfo { format: abc, version: 12 });
    assert_eq!(model.recorded_version(abc), Some(12));
}

#[test]
fn a_skin_with_descending_offsets_counts_no_influences_instead_of_overflowing() {
    // Not a valid skin (validate() refuses it), but asking it must not overflow.
    let skin = Skin { offsets: vec![0, 3, 1], influences: vec![Influence { bone: 0, weight: 1.0 }; 3] };
    assert_eq!(skin.max_influences(), 3);
    assert!(skin.vertex(1).is_empty());
}
