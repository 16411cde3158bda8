//! The one table of key bindings. Lookup, the footer and the `?` help are all generated from
//! [`BINDINGS`], so what the screen advertises is exactly what the keys do.

use super::action::{Action, Tab};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where a binding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Everywhere (unless a prompt is open).
    Global,
    /// On one tab.
    On(Tab),
    /// While a line is being edited (a path, a query, a number).
    Prompt,
}

/// A key: a code and whether Ctrl is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

const fn ch(c: char) -> Key {
    Key { code: KeyCode::Char(c), ctrl: false }
}

const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

const fn ctrl(c: char) -> Key {
    Key { code: KeyCode::Char(c), ctrl: true }
}

/// `key` as the user typed it: Enter arrives as Ctrl+J or Ctrl+M from some terminals, and from any
/// terminal while the explorer starts (before raw mode, the terminal turns Enter into a line feed).
pub fn as_typed(key: &KeyEvent) -> KeyEvent {
    match key.code {
        KeyCode::Char('j' | 'm') if key.modifiers == KeyModifiers::CONTROL => {
            KeyEvent { code: KeyCode::Enter, modifiers: KeyModifiers::NONE, ..*key }
        }
        _ => *key,
    }
}

/// One binding: its keys (the first is the one the footer shows), what it does, and where.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    pub scope: Scope,
    pub keys: &'static [Key],
    pub action: Action,
    /// Short text for the footer and help.
    pub label: &'static str,
    /// Shown in the footer (all bindings are in the help).
    pub footer: bool,
}

const fn b(scope: Scope, keys: &'static [Key], action: Action, label: &'static str, footer: bool) -> Binding {
    Binding { scope, keys, action, label, footer }
}

use Scope::{Global, On, Prompt};

pub const BINDINGS: &[Binding] = &[
    // Prompt first: while editing, these win over everything.
    b(Prompt, &[code(KeyCode::Enter)], Action::Submit, "accept", true),
    b(Prompt, &[code(KeyCode::Esc), ctrl('c')], Action::Dismiss, "cancel", true),
    b(Prompt, &[code(KeyCode::Tab)], Action::Complete, "complete", true),
    b(Prompt, &[code(KeyCode::Backspace)], Action::Backspace, "delete", false),
    b(Prompt, &[ctrl('u')], Action::ClearLine, "clear line", true),
    // Graph.
    b(On(Tab::Graph), &[ch('k'), code(KeyCode::Up)], Action::Up, "previous component", false),
    b(On(Tab::Graph), &[ch('j'), code(KeyCode::Down)], Action::Down, "next component", false),
    b(On(Tab::Graph), &[code(KeyCode::Enter), ch('p')], Action::ShowOnPicture, "draw component on picture", true),
    // Labels.
    b(On(Tab::Labels), &[ch('s')], Action::StepLevel, "step", true),
    b(On(Tab::Labels), &[ch('b')], Action::StepBack, "step back", true),
    b(On(Tab::Labels), &[ch('f')], Action::FinishPhase, "finish phase", true),
    b(On(Tab::Labels), &[ch('r')], Action::RunToEnd, "run to end", true),
    b(On(Tab::Labels), &[ch('x')], Action::Reset, "reset", true),
    b(On(Tab::Labels), &[code(KeyCode::Enter)], Action::Enter, "edit value", false),
    // Query.
    b(On(Tab::Query), &[ch('/'), ch('i'), code(KeyCode::Enter)], Action::EditQuery, "type u v", true),
    b(On(Tab::Query), &[ch(' ')], Action::ToggleNode, "fold node", true),
    b(On(Tab::Query), &[ch('e')], Action::ExpandAll, "expand all", true),
    b(On(Tab::Query), &[ch('E')], Action::CollapseAll, "collapse all", false),
    b(On(Tab::Query), &[ch('R')], Action::ToggleRules, "all rules / GRAIL's", true),
    // Batch.
    b(On(Tab::Batch), &[ch('r')], Action::RunBatch, "run", true),
    b(On(Tab::Batch), &[ch(' ')], Action::ToggleRow, "toggle run", true),
    b(On(Tab::Batch), &[ch('F')], Action::QueryFile, "query file", true),
    b(On(Tab::Batch), &[ch('x')], Action::Export, "export CSV+JSON", true),
    b(On(Tab::Batch), &[code(KeyCode::Enter)], Action::Enter, "edit value / toggle run", false),
    b(On(Tab::Batch), &[ch('R')], Action::ToggleRules, "all rules / GRAIL's", false),
    // Exceptions.
    b(On(Tab::Exceptions), &[ch('r')], Action::RunExceptions, "count", true),
    b(On(Tab::Exceptions), &[ch('e')], Action::Enter, "edit seed", false),
    b(On(Tab::Exceptions), &[code(KeyCode::Enter), ch('p')], Action::ShowOnPicture, "show pair on picture", true),
    // Picture.
    b(On(Tab::Picture), &[ch('s')], Action::StepLevel, "step", true),
    b(On(Tab::Picture), &[ch('b')], Action::StepBack, "step back", false),
    b(On(Tab::Picture), &[ch('f')], Action::FinishPhase, "finish phase", true),
    b(On(Tab::Picture), &[ch('r')], Action::RunToEnd, "run to end", true),
    b(On(Tab::Picture), &[ch('x')], Action::Reset, "reset", true),
    b(On(Tab::Picture), &[ch('+'), ch('=')], Action::ZoomIn, "zoom in", true),
    b(On(Tab::Picture), &[ch('-')], Action::ZoomOut, "zoom out", true),
    b(On(Tab::Picture), &[ch('g')], Action::GoToVertex, "go to a vertex", true),
    b(On(Tab::Picture), &[ch('z')], Action::FitView, "fit u and v (or the graph)", true),
    b(On(Tab::Picture), &[ch('['), ch('h')], Action::PrevDim, "previous dimension", true),
    b(On(Tab::Picture), &[ch(']'), ch('l')], Action::NextDim, "next dimension", true),
    b(On(Tab::Picture), &[ch('/'), ch('i')], Action::EditQuery, "query u v", true),
    b(On(Tab::Picture), &[ch('p')], Action::ToggleSidePanel, "side panel on/off", true),
    b(On(Tab::Picture), &[ch('e')], Action::ExportSvg, "write SVG", true),
    b(On(Tab::Picture), &[code(KeyCode::Left)], Action::PanLeft, "pan left", false),
    b(On(Tab::Picture), &[code(KeyCode::Right)], Action::PanRight, "pan right", false),
    b(On(Tab::Picture), &[code(KeyCode::Up)], Action::PanUp, "pan up", false),
    b(On(Tab::Picture), &[code(KeyCode::Down)], Action::PanDown, "pan down", false),
    b(On(Tab::Picture), &[ch('j')], Action::Down, "cursor to the next vertex", false),
    b(On(Tab::Picture), &[ch('k')], Action::Up, "cursor to the previous vertex", false),
    b(On(Tab::Picture), &[code(KeyCode::Home)], Action::Top, "cursor to the first vertex", false),
    b(On(Tab::Picture), &[ch('G'), code(KeyCode::End)], Action::Bottom, "cursor to the last vertex", false),
    b(On(Tab::Picture), &[code(KeyCode::Enter)], Action::Enter, "centre on the cursor", false),
    b(On(Tab::Picture), &[ch('>')], Action::Deeper, "larger neighbourhood", false),
    b(On(Tab::Picture), &[ch('<')], Action::Shallower, "smaller neighbourhood", false),
    b(On(Tab::Picture), &[ch('R')], Action::ToggleRules, "all rules / GRAIL's", false),
    // Everywhere.
    b(Global, &[ch('q')], Action::Quit, "quit", true),
    b(Global, &[ctrl('c')], Action::Quit, "quit", false),
    b(Global, &[ch('?')], Action::Help, "help", true),
    b(Global, &[code(KeyCode::Tab)], Action::NextTab, "next tab", false),
    b(Global, &[code(KeyCode::BackTab)], Action::PrevTab, "previous tab", false),
    b(Global, &[ch('1')], Action::GoTo(Tab::Graph), "Graph tab", false),
    b(Global, &[ch('2')], Action::GoTo(Tab::Labels), "Labels tab", false),
    b(Global, &[ch('3')], Action::GoTo(Tab::Query), "Query tab", false),
    b(Global, &[ch('4')], Action::GoTo(Tab::Batch), "Batch tab", false),
    b(Global, &[ch('5')], Action::GoTo(Tab::Exceptions), "Exceptions tab", false),
    b(Global, &[ch('6')], Action::GoTo(Tab::Picture), "Picture tab", false),
    b(Global, &[ch('o')], Action::OpenFile, "open graph", true),
    b(Global, &[ch('c'), code(KeyCode::Esc)], Action::Cancel, "cancel job", true),
    b(Global, &[ch('m')], Action::ToggleMouse, "mouse on/off", false),
    b(Global, &[ch('k'), code(KeyCode::Up)], Action::Up, "up", false),
    b(Global, &[ch('j'), code(KeyCode::Down)], Action::Down, "down", false),
    b(Global, &[ch('h'), code(KeyCode::Left)], Action::Left, "less / fold", false),
    b(Global, &[ch('l'), code(KeyCode::Right)], Action::Right, "more / unfold", false),
    b(Global, &[code(KeyCode::PageUp), ctrl('b')], Action::PageUp, "page up", false),
    b(Global, &[code(KeyCode::PageDown), ctrl('f')], Action::PageDown, "page down", false),
    b(Global, &[ch('g'), code(KeyCode::Home)], Action::Top, "top", false),
    b(Global, &[ch('G'), code(KeyCode::End)], Action::Bottom, "bottom", false),
];

impl Key {
    /// Whether a terminal key event is this key. Shift is implied by the character itself.
    pub fn matches(&self, event: &KeyEvent) -> bool {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl != self.ctrl {
            return false;
        }
        match (self.code, event.code) {
            (KeyCode::Char(a), KeyCode::Char(b)) => a == b,
            (a, b) => a == b,
        }
    }

    /// How the key is written in the footer and help.
    pub fn display(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Backspace => "Bksp".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            other => format!("{other:?}"),
        };
        if self.ctrl { format!("C-{base}") } else { base }
    }
}

/// The action for a key: the prompt's bindings while editing, else the tab's, then the global ones.
pub fn lookup(tab: Tab, editing: bool, event: &KeyEvent) -> Option<Action> {
    let scopes: &[Scope] = if editing { &[Prompt] } else { &[On(tab), Global] };
    scopes.iter().find_map(|&scope| {
        BINDINGS.iter().find(|b| b.scope == scope && b.keys.iter().any(|k| k.matches(event))).map(|b| b.action)
    })
}

/// The action for a key while the help overlay is open: the global bindings only, so that a tab's
/// own keys (the Picture tab's `g`, say) never shadow scrolling the help.
pub fn lookup_global(event: &KeyEvent) -> Option<Action> {
    BINDINGS.iter().find(|b| b.scope == Global && b.keys.iter().any(|k| k.matches(event))).map(|b| b.action)
}

/// The key shown for `action` in `scope` (its binding's first key), for sentences that tell the
/// user what to press.
pub fn key_of(scope: Scope, action: Action) -> Option<String> {
    BINDINGS.iter().find(|b| b.scope == scope && b.action == action).map(|b| b.keys[0].display())
}

/// What is being edited, for the footer: a path (or a named graph's vertex) completes on Tab,
/// other lines do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Editing {
    No,
    Completing,
    Text,
}

/// The footer's entries for the current context: `(key, label)`, leaving out the `idle` actions
/// (those that would do nothing now).
pub fn footer(tab: Tab, editing: Editing, idle: &[Action]) -> Vec<(String, &'static str)> {
    let scopes: &[Scope] = if editing == Editing::No { &[On(tab), Global] } else { &[Prompt] };
    scopes
        .iter()
        .flat_map(|&scope| BINDINGS.iter().filter(move |b| b.scope == scope && b.footer))
        .filter(|b| b.action != Action::Complete || editing == Editing::Completing)
        .filter(|b| !idle.contains(&b.action))
        .map(|b| (b.keys[0].display(), b.label))
        .collect()
}

/// One row of the help: the keys that do it (as shown) and what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelpRow {
    pub keys: String,
    pub label: &'static str,
}

/// Help sections: a title and its rows. The keys of `current` (the tab the help opens on) come
/// first, then those that work everywhere, then the other tabs' in tab order, then the prompt's.
/// "Everywhere" leaves out the keys `current` binds to something else (the Picture tab's `g` goes to
/// a vertex, not to the top), and a row whose keys are all taken there.
pub fn help_sections(current: Tab) -> Vec<(String, Vec<HelpRow>)> {
    let mut sections: Vec<(String, Vec<HelpRow>)> = Vec::new();
    let taken: Vec<Key> =
        BINDINGS.iter().filter(|b| b.scope == On(current)).flat_map(|b| b.keys.iter().copied()).collect();
    let title = |scope: Scope| match scope {
        Global => "Everywhere".to_string(),
        On(tab) => format!("{} tab", tab.title()),
        Prompt => "While typing".to_string(),
    };
    let others = Tab::ALL.into_iter().filter(|&tab| tab != current).map(On);
    let order = [On(current), Global].into_iter().chain(others).chain([Prompt]);
    for scope in order {
        let rows: Vec<HelpRow> = BINDINGS
            .iter()
            .filter(|b| b.scope == scope)
            .filter_map(|b| {
                let keys: Vec<String> =
                    b.keys.iter().filter(|k| scope != Global || !taken.contains(k)).map(Key::display).collect();
                (!keys.is_empty()).then(|| HelpRow { keys: keys.join(" "), label: b.label })
            })
            .collect();
        if !rows.is_empty() {
            sections.push((title(scope), rows));
        }
    }
    sections
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn tab_bindings_win_over_global_ones() {
        assert_eq!(lookup(Tab::Labels, false, &key(KeyCode::Char('r'))), Some(Action::RunToEnd));
        assert_eq!(lookup(Tab::Batch, false, &key(KeyCode::Char('r'))), Some(Action::RunBatch));
        assert_eq!(lookup(Tab::Graph, false, &key(KeyCode::Char('r'))), None);
        assert_eq!(lookup(Tab::Graph, false, &key(KeyCode::Char('q'))), Some(Action::Quit));
        assert_eq!(lookup(Tab::Graph, true, &key(KeyCode::Char('q'))), None);
        assert_eq!(lookup(Tab::Graph, false, &key(KeyCode::Down)), Some(Action::Down));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(lookup(Tab::Graph, false, &ctrl_c), Some(Action::Quit));
        assert_eq!(lookup(Tab::Graph, true, &ctrl_c), Some(Action::Dismiss));
    }

    #[test]
    fn key_of_names_the_key_that_does_it() {
        assert_eq!(key_of(Global, Action::GoTo(Tab::Labels)).as_deref(), Some("2"));
        assert_eq!(key_of(On(Tab::Labels), Action::RunToEnd).as_deref(), Some("r"));
        assert_eq!(key_of(On(Tab::Graph), Action::RunToEnd), None);
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for tab in Tab::ALL {
            for editing in [false, true] {
                let scopes: Vec<Scope> = if editing { vec![Prompt] } else { vec![On(tab), Global] };
                let mut seen: Vec<Key> = Vec::new();
                for b in BINDINGS.iter().filter(|b| scopes.contains(&b.scope)) {
                    for k in b.keys {
                        let shadowed = seen.contains(k);
                        // A tab binding may shadow a global one on purpose (Enter, Space); never twice
                        // within one scope.
                        let same_scope = BINDINGS.iter().filter(|o| o.scope == b.scope && o.keys.contains(k)).count();
                        assert_eq!(same_scope, 1, "{k:?} twice in {:?}", b.scope);
                        if !shadowed {
                            seen.push(*k);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn help_opens_on_the_current_tabs_keys_then_the_global_ones() {
        let titles: Vec<String> = help_sections(Tab::Picture).into_iter().map(|(title, _)| title).collect();
        assert_eq!(titles[..2], ["Picture tab", "Everywhere"]);
        assert_eq!(titles.last().map(String::as_str), Some("While typing"));
        let graph = help_sections(Tab::Graph);
        assert_eq!(graph[0].0, "Graph tab");
        assert!(graph[0].1.iter().any(|r| r.keys == "Enter p" && r.label == "draw component on picture"));
    }

    #[test]
    fn footer_and_help_come_from_the_table() {
        let footer = footer(Tab::Labels, Editing::No, &[]);
        assert!(footer.iter().any(|(k, l)| k == "s" && *l == "step"));
        assert!(footer.iter().any(|(k, l)| k == "b" && *l == "step back"));
        assert!(footer.iter().any(|(k, l)| k == "q" && *l == "quit"));
        // The help lists every binding once, but for the global ones a tab binds all the keys of:
        // the Graph tab's j/k (↑/↓) move over its components instead of a global up and down.
        let total: usize = help_sections(Tab::Graph).iter().map(|(_, rows)| rows.len()).sum();
        assert_eq!(total, BINDINGS.len() - 2);
        let graph_footer = super::footer(Tab::Graph, Editing::No, &[]);
        assert!(graph_footer.iter().any(|(k, l)| k == "Enter" && *l == "draw component on picture"));
        let without_cycles = super::footer(Tab::Graph, Editing::No, &[Action::ShowOnPicture]);
        assert!(!without_cycles.iter().any(|(k, _)| k == "Enter"));
    }

    #[test]
    fn help_leaves_out_global_keys_the_tab_binds_otherwise() {
        let help = help_sections(Tab::Picture);
        let everywhere = &help.iter().find(|(title, _)| title == "Everywhere").unwrap().1;
        assert!(!everywhere.iter().any(|r| r.label == "top"), "g goes to a vertex, Home to the first one");
        assert!(!everywhere.iter().any(|r| r.label == "less / fold"), "h and ← are the picture's own there");
        let query = help_sections(Tab::Query);
        let everywhere = &query.iter().find(|(title, _)| title == "Everywhere").unwrap().1;
        assert_eq!(everywhere.iter().find(|r| r.label == "top").unwrap().keys, "g Home");
    }

    #[test]
    fn only_completing_prompts_advertise_tab_completion() {
        let complete = |editing| footer(Tab::Query, editing, &[]).iter().any(|(k, _)| k == "Tab");
        assert!(complete(Editing::Completing));
        assert!(!complete(Editing::Text));
    }
}
