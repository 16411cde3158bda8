//! Everything a user can ask for, independent of the key or click that asked. The keymap maps keys
//! to these; [`crate::tui::app::App::apply`] carries them out.

/// The six screens, in tab order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tab {
    Graph,
    Labels,
    Query,
    Batch,
    Exceptions,
    Picture,
}

impl Tab {
    pub const ALL: [Tab; 6] = [Tab::Graph, Tab::Labels, Tab::Query, Tab::Batch, Tab::Exceptions, Tab::Picture];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Graph => "Graph",
            Tab::Labels => "Labels",
            Tab::Query => "Query",
            Tab::Batch => "Batch",
            Tab::Exceptions => "Exceptions",
            Tab::Picture => "Picture",
        }
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|&t| t == self).unwrap_or(0)
    }

    /// The next tab (wrapping), or the previous one with `back`.
    pub fn cycle(self, back: bool) -> Tab {
        let n = Tab::ALL.len();
        let i = self.index();
        Tab::ALL[if back { (i + n - 1) % n } else { (i + 1) % n }]
    }
}

/// One user intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    Help,
    NextTab,
    PrevTab,
    GoTo(Tab),
    ToggleMouse,
    OpenFile,
    /// Stop the running job at its next safe point.
    Cancel,
    Up,
    Down,
    /// Decrease the selected setting / collapse.
    Left,
    /// Increase the selected setting / expand.
    Right,
    PageUp,
    PageDown,
    Top,
    Bottom,
    /// Edit the selected setting, or open the selected tree node.
    Enter,
    // Labels.
    StepLevel,
    FinishPhase,
    RunToEnd,
    Reset,
    /// One level back in the stepper (the run is replayed to the level before).
    StepBack,
    // Query.
    EditQuery,
    ToggleNode,
    ExpandAll,
    CollapseAll,
    /// Switch between every rule and GRAIL's only, for every view (Query, Batch and Picture tabs).
    ToggleRules,
    // Batch.
    RunBatch,
    ToggleRow,
    QueryFile,
    Export,
    // Exceptions.
    RunExceptions,
    /// Show the selected false-positive pair on the picture.
    ShowOnPicture,
    // Picture.
    PrevDim,
    NextDim,
    /// A larger neighbourhood (large graphs).
    Deeper,
    Shallower,
    /// Move the picture's view by a quarter of the screen.
    PanLeft,
    PanRight,
    PanUp,
    PanDown,
    /// The next larger (or smaller) zoom level of the picture.
    ZoomIn,
    ZoomOut,
    /// Fit the picture's view to the query's pair (or the graph) again.
    FitView,
    /// Ask for a vertex id and centre the picture on it.
    GoToVertex,
    /// Show or hide the side panel next to the picture.
    ToggleSidePanel,
    /// Write the picture as SVG.
    ExportSvg,
    // Prompt (a line being edited).
    Submit,
    Dismiss,
    Complete,
    Backspace,
    ClearLine,
}
