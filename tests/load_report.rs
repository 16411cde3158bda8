//! The loader's report on crafted files: every anomaly, in every format, the same from the parallel
//! and the sequential reader.

use grail::graph::io::{Format, parse, parse_sequentially};
use grail::graph::load_report::{Firsts, LoadReport, Numbering};

fn report(text: &str) -> LoadReport {
    let (_, _, _, parallel) = parse(text.as_bytes(), "t", None).unwrap();
    let (_, _, _, sequential) = parse_sequentially(text.as_bytes(), "t", None).unwrap();
    assert_eq!(parallel, sequential, "{text:?}");
    parallel
}

fn firsts(count: u64, first: &[u64]) -> Firsts {
    Firsts { count, first: first.to_vec(), names: Vec::new() }
}

#[test]
fn edge_list_with_every_anomaly() {
    let r = report("# made by hand\n0 1\n0 1\n\n1 1\n1 2\n2 0\n% end\n5 6\n");
    assert_eq!((r.lines, r.header_lines, r.data_lines), (9, 0, 6));
    assert_eq!(r.comment_lines, firsts(2, &[1, 8]));
    assert_eq!(r.blank_lines, firsts(1, &[4]));
    assert_eq!(r.edges_kept, 4);
    assert_eq!(r.duplicate_edges, firsts(1, &[3]));
    assert_eq!(r.self_loops, firsts(1, &[5]));
    assert_eq!(r.loop_only_vertices, firsts(0, &[]), "1 has other edges");
    assert_eq!((r.vertices, r.declared_vertices), (7, None));
    assert_eq!(r.unused_ids, firsts(2, &[3, 4]));
    assert_eq!((r.id_range, r.numbering), (Some((0, 6)), Numbering::Kept));
}

#[test]
fn sparse_ids_are_renumbered_and_a_loop_counts_as_appearing() {
    let r = report("1000 2000\n7 7\n1000 2000\n");
    assert_eq!(r.numbering, Numbering::Renumbered);
    assert_eq!((r.vertices, r.id_range), (3, Some((7, 2000))));
    assert_eq!(r.unused_ids, firsts(0, &[]));
    assert_eq!((r.self_loops.count, &r.duplicate_edges), (1, &firsts(1, &[3])));
    // ... but, its loop dropped, 7 is left without an edge, and the report says so.
    assert_eq!(r.loop_only_vertices, firsts(1, &[7]));
    assert!(r.human_lines().iter().any(|l| l == "1 vertex only in self-loops, left without an edge (7)"));
    // A named vertex is named, and one sparse id is an id.
    let named = report("a,b\n\"c, d\",\"c, d\"\nb,a\n");
    let want = Firsts { count: 1, first: Vec::new(), names: vec!["\"c, d\"".into()] };
    assert_eq!(named.loop_only_vertices, want);
    assert!(named.human_lines().iter().any(|l| l.ends_with("left without an edge (\"c, d\")")));
    assert_eq!(report("5 5\n").ids_sentence(), "sparse file id 5 renumbered 0 by first appearance");
}

#[test]
fn the_writer_comment_declares_the_vertices() {
    let r = report("# grail-explorer: 6 vertices, 2 edges\n0 1\n1 2\n");
    assert_eq!((r.declared_vertices, r.vertices), (Some(6), 6));
    assert_eq!(r.unused_ids, firsts(3, &[3, 4, 5]));
}

#[test]
fn gra_with_every_anomaly() {
    let r = report("graph_for_greach\n\n5\n0: 1 1 0 2 #\n1: 2 #\n2: 2 2 #\n3: #\n4: 0 0 0 #\n\n");
    assert_eq!((r.lines, r.header_lines, r.data_lines), (9, 2, 5));
    assert_eq!(r.blank_lines, firsts(2, &[2, 9]));
    assert_eq!(r.edges_kept, 4);
    assert_eq!(r.duplicate_edges, firsts(3, &[4, 8]));
    assert_eq!(r.self_loops, firsts(3, &[4, 6, 6]));
    assert_eq!((r.declared_vertices, r.unused_ids), (Some(5), firsts(1, &[3])));
}

#[test]
fn matrix_market_with_every_anomaly() {
    let text = "%%MatrixMarket matrix coordinate pattern symmetric\n% c\n4 4 4\n1 2\n2 1\n\n3 3\n1 2\n";
    let r = report(text);
    assert_eq!((r.lines, r.header_lines, r.data_lines), (8, 2, 4));
    assert_eq!((r.comment_lines.count, r.blank_lines), (1, firsts(1, &[6])));
    assert_eq!(r.edges_kept, 2);
    // Each symmetric entry is both directions: lines 5 and 8 repeat line 4's two edges.
    assert_eq!(r.duplicate_edges, firsts(4, &[5, 5, 8, 8]));
    assert_eq!(r.self_loops, firsts(1, &[7]));
    assert_eq!(r.unused_ids, firsts(1, &[4]));
    assert_eq!((r.id_range, r.numbering), (Some((1, 3)), Numbering::Offset { offset: 1 }));
}

#[test]
fn counted_formats_with_every_anomaly() {
    for (text, format) in [
        ("# c\n5 4 directed\n0 1 1\n0 1 2\n2 2 1\n\n1 0 1\n", Format::Weighted),
        ("# c\n5 4\n0 1\n0 1\n2 2\n\n1 0\n", Format::Header),
    ] {
        let (_, _, f, r) = parse(text.as_bytes(), "t", Some(format)).unwrap();
        let (_, _, _, sequential) = parse_sequentially(text.as_bytes(), "t", Some(format)).unwrap();
        assert_eq!((f, &r), (format, &sequential));
        assert_eq!((r.lines, r.header_lines, r.data_lines, r.edges_kept), (7, 1, 4, 2));
        assert_eq!((r.comment_lines.clone(), r.blank_lines.clone()), (firsts(1, &[1]), firsts(1, &[6])));
        assert_eq!((r.duplicate_edges.clone(), r.self_loops.clone()), (firsts(1, &[4]), firsts(1, &[5])));
        assert_eq!((r.declared_vertices, r.unused_ids.clone()), (Some(5), firsts(2, &[3, 4])));
    }
}

#[test]
fn fields_beyond_a_counted_formats_columns_are_reported() {
    for (text, format, extra) in [
        ("3 3 directed\n0 1 5 x\n1 2 3\n2 0 1 2 3\n", Format::Weighted, firsts(2, &[2, 4])),
        ("3 2\n0 1 7\n1 2\n", Format::Header, firsts(1, &[2])),
        (
            "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n2 3 1 9\n",
            Format::MatrixMarket,
            firsts(1, &[4]),
        ),
        ("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 4\n", Format::MatrixMarket, firsts(1, &[3])),
        ("%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 2 4 5\n", Format::MatrixMarket, firsts(0, &[])),
        ("# c\n0 1 5\n1 2\n2 3 x y\n", Format::EdgeList, firsts(2, &[2, 4])),
    ] {
        let (_, _, _, r) = parse(text.as_bytes(), "t", Some(format)).unwrap();
        let (_, _, _, sequential) = parse_sequentially(text.as_bytes(), "t", Some(format)).unwrap();
        assert_eq!(r, sequential, "{text:?}");
        assert_eq!(r.extra_field_lines, extra, "{text:?}");
        let said = r.human_lines().join("\n");
        assert_eq!(said.contains("more fields than the format's columns"), extra.count > 0, "{said}");
    }
}

#[test]
fn a_clean_file_has_no_anomalies() {
    let r = report("0 1\n1 2\n");
    assert!(r.anomalies().is_empty());
    assert!(r.anomaly_sentences().is_empty());
}

#[test]
fn anomalies_name_their_first_lines() {
    let r = report("0 1\n0 1\n1 1\n1 2\n2 0\n5 6\n");
    assert_eq!(
        r.anomaly_sentences(),
        vec!["1 duplicate edge (line 2)", "1 self-loop (line 3)", "2 ids never in an edge (3, 4)"]
    );
}

#[test]
fn many_blocks_give_the_same_report() {
    // Enough lines for several parallel blocks, with anomalies in the middle and at the end.
    let mut text = String::from("# big\n");
    for i in 0..300_000u32 {
        text += &format!("{i} {}\n", i + 1);
        if i == 150_000 {
            text += "\n7 7\n% mid\n3 4\n";
        }
    }
    text += "5 6\n";
    let r = report(&text);
    assert_eq!(r.duplicate_edges, firsts(2, &[150_006, 300_006]));
    assert_eq!(r.self_loops, firsts(1, &[150_004]));
    assert_eq!(r.comment_lines, firsts(2, &[1, 150_005]));
}

#[test]
fn the_id_sentence_is_true_for_every_format() {
    // A `.gra` whose vertex 0 is in no edge: the ids are the declared ones, not those in edges.
    let gra = report("graph_for_greach\n3\n0: #\n1: 2 #\n2: #\n");
    assert_eq!(gra.ids_sentence(), "ids 0 to 2 declared");
    assert!(
        gra.human_lines()[2].ends_with("ids 0 to 2 declared; 1 id never in an edge (0)"),
        "{:?}",
        gra.human_lines()
    );
    // An edge list keeps dense ids, from 0 whatever the smallest id in an edge.
    assert_eq!(report("2 3\n3 4\n4 2\n").ids_sentence(), "file ids 0 to 4 kept as the vertex ids");
    assert_eq!(
        // (A last line on an id above the first: `1000 2000` over lines on smaller ids would be a header.)
        report("1000 2000\n7 7\n2000 7\n").ids_sentence(),
        "sparse file ids 7 to 2000 renumbered 0 to 2 by first appearance"
    );
    let mm = report("%%MatrixMarket matrix coordinate pattern general\n4 4 1\n2 3\n");
    assert_eq!(mm.ids_sentence(), "file ids 1 to 4, vertex = file id - 1");
    assert_eq!(report("alice bob\n").ids_sentence(), "named vertices, numbered 0 to 1 by first appearance");
}
