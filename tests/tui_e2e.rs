//! End to end: the real binary in a pseudo-terminal. Open the explorer, label, query, quit, and
//! check the terminal was restored (alternate screen left, raw mode off). Every wait has a
//! deadline, so a broken build fails instead of hanging.

#![cfg(unix)]

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const DEADLINE: Duration = Duration::from_secs(60);

/// The program's output: raw bytes (for the mode switches) and a terminal emulator's screen.
struct Screen {
    rx: Receiver<Vec<u8>>,
    seen: Vec<u8>,
    parser: vt100::Parser,
}

impl Screen {
    /// Emulates a `rows` x `cols` terminal fed by the program's output, read on a thread.
    fn follow(mut reader: Box<dyn Read + Send>, rows: u16, cols: u16) -> Screen {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Screen {
            rx,
            seen: Vec::new(),
            parser: vt100::Parser::new(rows.try_into().unwrap(), cols.try_into().unwrap(), 0),
        }
    }

    fn feed(&mut self, bytes: Vec<u8>) {
        self.parser.process(&bytes);
        self.seen.extend(bytes);
    }

    /// Reads output until the screen shows `text`, or panics at the deadline.
    fn wait_for(&mut self, text: &str) {
        let start = Instant::now();
        loop {
            if self.parser.screen().contents().contains(text) {
                return;
            }
            let Some(left) = DEADLINE.checked_sub(start.elapsed()) else {
                panic!("'{text}' did not appear; the screen shows:\n{}", self.parser.screen().contents());
            };
            match self.rx.recv_timeout(left.min(Duration::from_millis(200))) {
                Ok(bytes) => self.feed(bytes),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    panic!("the program ended before '{text}':\n{}", self.parser.screen().contents());
                }
            }
        }
    }

    /// Reads what arrives for a while (after the program ended, until the reader closes).
    fn drain(&mut self, for_at_most: Duration) {
        let start = Instant::now();
        while start.elapsed() < for_at_most {
            match self.rx.recv_timeout(Duration::from_millis(100)) {
                Ok(bytes) => self.feed(bytes),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(_) => return,
            }
        }
    }
}

/// (ICANON, ECHO) of the terminal: both are off in raw mode.
fn local_modes(master: &dyn portable_pty::MasterPty) -> (bool, bool) {
    let fd = master.as_raw_fd().expect("a pty file descriptor");
    // SAFETY: tcgetattr only writes the termios struct it is given, and `fd` is open.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::tcgetattr(fd, &mut t) }, 0, "tcgetattr failed");
    (t.c_lflag & libc::ICANON != 0, t.c_lflag & libc::ECHO != 0)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[test]
fn open_label_query_quit_restores_the_terminal() {
    let pty = native_pty_system();
    let pair = pty.openpty(PtySize { rows: 30, cols: 100, pixel_width: 0, pixel_height: 0 }).expect("a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_grail"));
    cmd.arg("tui");
    cmd.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/sample-graphs/kegg.gra"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("NO_COLOR", "1");
    let mut child = pair.slave.spawn_command(cmd).expect("the binary starts");
    drop(pair.slave);
    let reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let mut screen = Screen::follow(reader, 30, 100);
    let mut send = |keys: &str| {
        writer.write_all(keys.as_bytes()).unwrap();
        writer.flush().unwrap();
    };

    // Opens on the Graph tab in the alternate screen.
    screen.wait_for("(y) per topological level (x)");
    assert!(find(&screen.seen, b"\x1b[?1049h").is_some(), "no alternate screen");
    assert!(screen.parser.screen().alternate_screen());
    let (canonical, _) = local_modes(&*pair.master);
    assert!(!canonical, "raw mode while running");
    // Labels: run to the end.
    send("2");
    screen.wait_for("Settings");
    send("r");
    screen.wait_for("labels ready");
    // Query: a tree-cut pair, with GRAIL's rules (`R`; with every rule a supportive vertex decides it).
    send("3");
    send("R");
    send("/2 1\r");
    screen.wait_for("2 reaches 1");
    screen.wait_for("tree-cut");
    screen.wait_for("rules: grail");
    // Picture: the query's neighbourhood is drawn, with its caption and the legend.
    send("6");
    screen.wait_for("What you see");
    screen.wait_for("2 ⇝ 1? yes");
    let at = screen.seen.len();
    // Quit.
    send("q");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < DEADLINE, "the program did not quit");
        std::thread::sleep(Duration::from_millis(50));
    };
    screen.drain(Duration::from_millis(500));
    assert!(status.success(), "exit status {status:?}");
    assert!(find(&screen.seen[at..], b"\x1b[?1049l").is_some(), "the alternate screen was not left");
    assert!(!screen.parser.screen().alternate_screen());
    let (canonical, echo) = local_modes(&*pair.master);
    assert!(canonical, "raw mode left on");
    assert!(echo, "echo left off");
}

/// An example program built beside this test (`cargo test` builds the examples): the fixture that
/// panics with the explorer on screen (examples/panic_restore.rs).
fn example(name: &str) -> std::path::PathBuf {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let path = deps.parent().unwrap().join("examples").join(name);
    assert!(path.exists(), "{} is missing: run `cargo test` (it builds the examples)", path.display());
    path
}

#[test]
fn a_panic_restores_the_terminal() {
    let pty = native_pty_system();
    let pair = pty.openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 }).expect("a pty");
    let mut cmd = CommandBuilder::new(example("panic_restore"));
    cmd.env("TERM", "xterm-256color");
    // A backtrace would scroll the message off the 24-line screen.
    cmd.env("RUST_BACKTRACE", "0");
    let mut child = pair.slave.spawn_command(cmd).expect("the binary starts");
    drop(pair.slave);
    let reader = pair.master.try_clone_reader().unwrap();
    let mut screen = Screen::follow(reader, 24, 80);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < DEADLINE, "the program did not end");
        screen.drain(Duration::from_millis(50));
    };
    screen.drain(Duration::from_millis(500));
    assert!(!status.success());
    assert!(find(&screen.seen, b"\x1b[?1049l").is_some(), "the alternate screen was not left");
    assert!(!screen.parser.screen().alternate_screen());
    assert!(screen.parser.screen().contents().contains("panicking on purpose"));
    assert!(find(&screen.seen, b"Labels").is_some(), "the explorer's tab bar was drawn before the panic");
    let (canonical, echo) = local_modes(&*pair.master);
    assert!(canonical && echo, "raw mode left on after a panic");
}

#[test]
fn a_gpu_machine_shows_the_gpu_batch_row_checked() {
    // The explorer offering a stand-in GPU (examples/gpu_stub.rs), at the smallest size it supports.
    let pty = native_pty_system();
    let pair = pty.openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 }).expect("a pty");
    let mut cmd = CommandBuilder::new(example("gpu_stub"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("NO_COLOR", "1");
    let mut child = pair.slave.spawn_command(cmd).expect("the fixture starts");
    drop(pair.slave);
    let reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let mut screen = Screen::follow(reader, 24, 80);
    screen.wait_for("(y) per topological level (x)");
    writer.write_all(b"4").unwrap();
    writer.flush().unwrap();
    // The GPU run is listed first among the runs, checked, and names the device; every search row
    // fits (the exact BFS rows come after them, behind the list's "more" marker at this size).
    screen.wait_for("[x] g-dfs+bfs  GPU: Stub GPU");
    // The last row shows too (waited for: the frame may still be arriving).
    screen.wait_for("[ ] bfs        all threads");
    let contents = screen.parser.screen().contents();
    let rows: Vec<&str> = contents.lines().collect();
    let gpu_row = rows.iter().position(|r| r.contains("[x] g-dfs+bfs  GPU")).unwrap();
    let first_cpu_row = rows.iter().position(|r| r.contains("guided-dfs 1 thread")).unwrap();
    assert!(gpu_row < first_cpu_row, "the GPU row comes first:\n{contents}");
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < DEADLINE, "the fixture did not quit");
        screen.drain(Duration::from_millis(50));
    }
}

#[test]
fn a_bad_file_is_an_error_before_the_screen_switches() {
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_grail")).args(["info", "/no/such/graph.gra"]).output().unwrap();
    assert!(!out.status.success());
    // Without a terminal, `grail` alone prints the bundled graph's summary.
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_grail")).stdin(std::process::Stdio::null()).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("sample-graphs/kegg.gra"));
}
