//! Colours that read on light and dark terminals (the 8 named ANSI colours, which every terminal
//! theme adapts; text itself keeps the terminal's own foreground), and none at all with `NO_COLOR`
//! (<https://no-color.org>): then only bold, reverse and underline carry meaning.

use ratatui::style::{Color, Modifier, Style};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    /// Colour unless `NO_COLOR` is set to a non-empty value.
    pub fn detect() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { color: !no_color }
    }

    #[cfg(test)]
    pub fn plain() -> Theme {
        Theme { color: false }
    }

    fn fg(&self, color: Color) -> Style {
        if self.color { Style::default().fg(color) } else { Style::default() }
    }

    pub fn text(&self) -> Style {
        Style::default()
    }
    pub fn dim(&self) -> Style {
        if self.color { Style::default().add_modifier(Modifier::DIM) } else { Style::default() }
    }
    pub fn title(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }
    pub fn accent(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
    pub fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }
    pub fn key(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
    pub fn yes(&self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }
    pub fn no(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    pub fn warn(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }
    pub fn error(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    /// The found path in the search tree.
    pub fn path(&self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }
    /// The three frontier queues, told apart by symbol too (see the stacked bars widget).
    pub fn small(&self) -> Style {
        self.fg(Color::Blue)
    }
    pub fn medium(&self) -> Style {
        self.fg(Color::Magenta)
    }
    pub fn large(&self) -> Style {
        self.fg(Color::Red)
    }
    pub fn bar(&self) -> Style {
        self.fg(Color::Cyan)
    }
    pub fn gauge(&self) -> Style {
        self.fg(Color::Green)
    }
}
