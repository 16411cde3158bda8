//! The table written beside a converted file whose format numbers vertices densely (`.gra`, Matrix
//! Market, the header formats): each vertex's number in that file and the name or file id it had,
//! so a vertex of the converted graph can be found again in the original.

use super::atomic_write::write_atomically;
use crate::Result;
use crate::graph::VertexNames;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Where the table for `out` goes: beside it, `NAME.ids.csv` (`g.gra` → `g.gra.ids.csv`).
pub fn id_map_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".ids.csv");
    PathBuf::from(name)
}

/// Writes the CSV `number,name` (or `number,file_id`) for the `n` vertices of a file that numbers
/// them from `first_number` (1 for Matrix Market, 0 otherwise), atomically.
pub fn write_id_map(path: &Path, names: &VertexNames, n: usize, first_number: u64) -> Result<()> {
    write_atomically(path, |file| {
        let mut out = csv::Writer::from_writer(BufWriter::with_capacity(1 << 16, file));
        let column = if names.table().is_some() { "name" } else { "file_id" };
        out.write_record(["number", column])?;
        for v in 0..n as u32 {
            out.write_record([(u64::from(v) + first_number).to_string(), names.plain(v)])?;
        }
        out.into_inner().map_err(|e| e.into_error())?.flush()
    })
}

/// Whether the file at `path` is such a table (its first line is the header this module writes):
/// one left beside a file that a later conversion wrote in a format that keeps the ids.
pub fn is_id_map(path: &Path) -> bool {
    use std::io::BufRead;
    let Ok(file) = std::fs::File::open(path) else { return false };
    let mut first = String::new();
    std::io::BufReader::new(file).take(64).read_line(&mut first).is_ok()
        && matches!(first.trim_end(), "number,name" | "number,file_id")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::name_table::NameTable;
    use std::sync::Arc;

    #[test]
    fn each_number_gets_its_name_quoted_where_needed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("g.gra");
        let path = id_map_path(&out);
        assert_eq!(path, dir.path().join("g.gra.ids.csv"));
        let names = VertexNames::Named(Arc::new(NameTable::new(&["alice", "Lovelace, Ada"]).unwrap()));
        write_id_map(&path, &names, 2, 0).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "number,name\n0,alice\n1,\"Lovelace, Ada\"\n");
        write_id_map(&path, &VertexNames::remapped(vec![700, 5]), 2, 1).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "number,file_id\n1,700\n2,5\n");
        assert!(is_id_map(&path));
        std::fs::write(&path, "source,target\n").unwrap();
        assert!(!is_id_map(&path));
    }
}
