//! A batch's results as files: `base.csv`, one row per run (written by the `csv` crate, which
//! quotes a field holding a comma, a quote or a line break), and `base.json`, the whole result.
//! Both are written atomically: a reader never sees half a file.

use super::answer::Rule;
use super::batch::BatchReport;
use crate::graph::io::{all_or_nothing, write_atomically};
use crate::{Error, Result};
use serde::Serialize;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// One run of a batch, as a CSV row.
pub struct ExportRow<'a> {
    /// The run's name (`guided-dfs ×1`, `gpu guided-dfs+bfs`, ...).
    pub name: &'a str,
    /// How it searched (`guided-dfs`, or the GPU's `guided-dfs+bfs`): the CSV's `method`.
    pub method: &'a str,
    /// A GPU run: its report has no search counts, so those columns stay empty.
    pub gpu: bool,
    /// The batch's summary.
    pub report: &'a BatchReport,
}

/// The CSV's columns: the run, one per rule (in the order of the report's counts), the answers,
/// the search's work.
pub fn csv_header() -> Vec<String> {
    let mut header: Vec<String> =
        ["run", "method", "threads", "queries", "query_seconds", "queries_per_second"].map(String::from).to_vec();
    // The rules under the names they have everywhere (`same-component`, as in the JSON's
    // `by_rule` and the explanations).
    header.extend(Rule::ALL.iter().map(|r| r.name().to_string()));
    header.extend(
        [
            "positives",
            "searched_negatives",
            "searched_negative_rate",
            "expanded",
            "pruned",
            "dead_ends",
            "dead_end_rate",
            "checked",
            "mismatches",
        ]
        .map(String::from),
    );
    header
}

/// The CSV record of one run, in [`csv_header`]'s order.
fn record(row: &ExportRow) -> Vec<String> {
    let r = row.report;
    let seconds = r.elapsed.as_secs_f64();
    let qps = if seconds > 0.0 { r.queries as f64 / seconds } else { 0.0 };
    let mut fields = vec![
        row.name.to_string(),
        row.method.to_string(),
        r.threads.to_string(),
        r.queries.to_string(),
        format!("{seconds:.6}"),
        format!("{qps:.1}"),
    ];
    fields.extend(r.by_rule.iter().map(|(_, c)| c.to_string()));
    fields.extend([
        r.positives.to_string(),
        r.searched_negatives().to_string(),
        format!("{:.6}", r.searched_negative_rate()),
    ]);
    if row.gpu {
        fields.extend(std::iter::repeat_n(String::new(), 4));
    } else {
        fields.extend([
            r.expanded.to_string(),
            r.pruned.to_string(),
            r.dead_ends.to_string(),
            format!("{:.6}", r.dead_end_rate),
        ]);
    }
    fields.extend([r.checked.to_string(), r.mismatches.to_string()]);
    fields
}

/// Writes the header and one record per run to `out`.
pub fn write_csv(rows: &[ExportRow], out: impl Write) -> Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(csv_header()).map_err(Error::other)?;
    for row in rows {
        csv.write_record(record(row)).map_err(Error::other)?;
    }
    csv.flush().map_err(|source| Error::Io { path: None, message: "cannot write the CSV".into(), source })?;
    Ok(())
}

/// Writes `base.csv` (the runs) and `base.json` (`whole`, the result as the caller holds it), both
/// or neither; the paths written.
pub fn export(rows: &[ExportRow], whole: &impl Serialize, base: &Path) -> Result<Vec<PathBuf>> {
    all_or_nothing(|| write_both(rows, whole, base))
}

fn write_both(rows: &[ExportRow], whole: &impl Serialize, base: &Path) -> Result<Vec<PathBuf>> {
    let csv_path = base.with_extension("csv");
    let json_path = base.with_extension("json");
    write_atomically(&csv_path, |file| {
        let mut out = BufWriter::new(file);
        write_csv(rows, &mut out).map_err(std::io::Error::other)?;
        out.flush()
    })?;
    write_atomically(&json_path, |file| {
        let mut out = BufWriter::new(file);
        serde_json::to_writer_pretty(&mut out, whole)?;
        out.flush()
    })?;
    Ok(vec![csv_path, json_path])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Order, dfs};
    use crate::query::{Engine, Method, random_queries, run_batch};

    /// What the CSV says reads back through the `csv` crate's reader field for field, a run name
    /// with a comma and a quote included; a GPU row's search columns are empty.
    /// 300 random queries on a random DAG of 500 vertices.
    fn report() -> BatchReport {
        let g = crate::graph::generators::random_dag(500, 2.0, 4).unwrap();
        let labels = dfs::label(&g, 2, Order::Random { seed: 1 }).unwrap();
        let identity: Vec<u32> = (0..500).collect();
        let engine = Engine::new(&g, &labels, &identity);
        run_batch(&engine, &random_queries(500, 300, 2), Method::GuidedDfs)
    }

    #[test]
    fn the_csv_reads_back_as_written() {
        let report = report();
        let names = ["guided-dfs, \"quoted\" ×1", "gpu guided-dfs+bfs"];
        let rows = [
            ExportRow { name: names[0], method: "guided-dfs", gpu: false, report: &report },
            ExportRow { name: names[1], method: "guided-dfs+bfs", gpu: true, report: &report },
        ];
        let mut bytes = Vec::new();
        write_csv(&rows, &mut bytes).unwrap();
        let mut reader = csv::Reader::from_reader(bytes.as_slice());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(header, csv_header());
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), 2);
        let column = |name: &str| header.iter().position(|h| h == name).unwrap();
        for (record, row) in records.iter().zip(&rows) {
            assert_eq!(record.len(), header.len());
            assert_eq!(&record[0], row.name);
            assert_eq!(&record[column("method")], row.method);
            assert_eq!(record[column("queries")].parse::<u64>().unwrap(), 300);
            assert_eq!(record[column("positives")].parse::<u64>().unwrap(), report.positives);
            assert_eq!(record[column("searched_negatives")].parse::<u64>().unwrap(), report.searched_negatives());
            let rules: u64 = Rule::ALL.iter().map(|r| record[column(r.name())].parse::<u64>().unwrap()).sum();
            assert_eq!(rules, 300, "every query is answered by one rule");
        }
        assert_eq!(records[0][column("expanded")].parse::<u64>().unwrap(), report.expanded);
        assert_eq!(&records[1][column("expanded")], "");
        // The writer quoted the name: the comma did not split it.
        assert!(String::from_utf8(bytes).unwrap().contains("\"guided-dfs, \"\"quoted\"\" ×1\""));
    }

    #[test]
    fn export_writes_both_files() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("batch");
        let report = report();
        let written =
            export(&[ExportRow { name: "a,b", method: "guided-dfs", gpu: false, report: &report }], &["whole"], &base)
                .unwrap();
        assert_eq!(written, vec![base.with_extension("csv"), base.with_extension("json")]);
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&written[1]).unwrap()).unwrap();
        assert_eq!(json, serde_json::json!(["whole"]));
        let mut reader = csv::Reader::from_path(&written[0]).unwrap();
        assert_eq!(&reader.records().next().unwrap().unwrap()[0], "a,b");
    }

    #[test]
    fn an_export_that_fails_half_way_leaves_both_files_as_they_were() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("batch");
        std::fs::write(base.with_extension("csv"), "the old runs").unwrap();
        std::fs::create_dir(base.with_extension("json")).unwrap();
        let report = report();
        let rows = [ExportRow { name: "a", method: "guided-dfs", gpu: false, report: &report }];
        assert!(export(&rows, &["whole"], &base).is_err());
        assert_eq!(std::fs::read_to_string(base.with_extension("csv")).unwrap(), "the old runs");
    }
}
