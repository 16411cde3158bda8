//! The library's front door on a graph whose file names its vertices.

use grail::{Error, Index, Settings};
use std::path::Path;

#[test]
fn an_index_answers_by_name_and_suggests_names_it_lacks() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-graphs/follows.csv");
    let index = Index::open(&path, &Settings::default()).unwrap();
    let (xavier, zoe, uma) =
        (index.vertex("xavier").unwrap(), index.vertex("zoe").unwrap(), index.vertex("uma").unwrap());
    assert!(index.reaches(xavier, zoe).unwrap());
    assert!(!index.reaches(zoe, xavier).unwrap());
    assert_eq!(index.vertex_name(uma).as_deref(), Some("uma"));
    let why = index.explain(xavier, uma).unwrap();
    assert!(why.sentence.contains("xavier") && why.sentence.contains("uma"), "{}", why.sentence);
    match index.vertex("zoë") {
        Err(Error::NoSuchName { name, nearest }) => {
            assert_eq!((name.as_str(), nearest.first().map(String::as_str)), ("zoë", Some("zoe")));
            // Only close names: no other name of the file is like `zoë`.
            assert_eq!(nearest.len(), 1);
        }
        other => panic!("expected NoSuchName, got {other:?}"),
    }
    // Numbered graphs take ids written out.
    let numbered = Index::from_edges(3, &[(0, 1), (1, 2)], &Settings::default()).unwrap();
    assert_eq!(numbered.vertex("2").unwrap(), 2);
    assert!(matches!(numbered.vertex("7"), Err(Error::NoSuchVertex { vertex: 7, vertices: 3 })));
    assert!(matches!(numbered.vertex("two"), Err(Error::NoSuchName { .. })));
}
