//! Which part of the drawing the Picture tab shows: a zoom level and the content cell at the
//! area's top-left corner.
//!
//! Until the user pans or zooms, the view is fitted again on every frame, so it follows the
//! terminal's size: the whole drawing when it is a small graph and fits at some zoom level, else
//! both ends of the query (or the vertex drawn around) at the largest level up to bordered boxes,
//! else u in view with the view shifted towards v.
//!
//! Whatever the zoom, the vertex a view is about (the cursor's, or u) is kept in view, and so is its
//! parent in the drawing (where the DFS tree enters it) whenever both fit the area together; a
//! fitted view (`z`) keeps u and v before u's parent: the parent only where all three fit.

use crate::draw::{EdgeKind, Picture};
use crate::tui::widgets::picture::PictureView;
use crate::tui::widgets::picture::grid::{BOXED_ZOOM, CellRect, ZOOM_LEVELS};
use ratatui::layout::Rect;

/// A resolved view: zoom level and the content cell shown at the area's top-left (negative to
/// centre a drawing smaller than the area).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub zoom: usize,
    pub x: i64,
    pub y: i64,
}

/// How the view is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Viewport {
    /// Fitted to the focus on every frame.
    #[default]
    Fit,
    /// DAG vertex `vertex` centred at zoom level `zoom` (after `g` or Enter, or the cursor leaving
    /// the view).
    Centre { vertex: u32, zoom: usize },
    /// The targets (both ends of the query, or the vertex drawn around) centred at zoom level
    /// `zoom`, u kept in view (after `+` or `-` with no cursor move since the drawing came).
    Targets { zoom: usize },
    /// Where the user panned or zoomed to.
    Manual(View),
}

/// What a view is resolved against: the drawing, whether it is the whole graph, the nodes to keep
/// in view (u first), and the widget's area.
pub struct Scene<'a> {
    pub picture: &'a Picture,
    pub whole: bool,
    pub targets: &'a [usize],
    pub area: Rect,
}

impl Scene<'_> {
    fn widget(&self, zoom: usize) -> PictureView<'_> {
        PictureView::new(self.picture).zoom(zoom)
    }

    /// The cells the view shows: the area less the legend row.
    fn room(&self) -> (i64, i64) {
        let height = self.widget(0).body_height(self.area);
        (i64::from(self.area.width), i64::from(height))
    }

    fn content(&self, zoom: usize) -> (i64, i64) {
        self.widget(zoom).content_size(self.area)
    }

    fn node(&self, zoom: usize, index: usize) -> Option<CellRect> {
        self.widget(zoom).node_rect(self.area, index)
    }

    /// The box of every target together, with the marker rows above and below.
    fn targets_rect(&self, zoom: usize, targets: &[usize]) -> Option<CellRect> {
        let rect = targets.iter().filter_map(|&i| self.node(zoom, i)).reduce(CellRect::union)?;
        Some(CellRect { y: rect.y - 1, height: rect.height + 2, ..rect })
    }

    /// The view for `viewport`.
    pub fn resolve(&self, viewport: Viewport) -> View {
        match viewport {
            Viewport::Fit => self.fit(),
            Viewport::Centre { vertex, zoom } => {
                let zoom = zoom.min(ZOOM_LEVELS - 1);
                match self.picture.node_of(vertex).and_then(|i| Some((i, self.node(zoom, i)?))) {
                    Some((i, rect)) => {
                        let (w, h) = self.room();
                        let view =
                            View { zoom, x: rect.x + rect.width / 2 - w / 2, y: rect.y + rect.height / 2 - h / 2 };
                        self.keep_with_parent(view, i, None)
                    }
                    None => self.fit(),
                }
            }
            Viewport::Targets { zoom } => {
                let zoom = zoom.min(ZOOM_LEVELS - 1);
                match self.targets_rect(zoom, self.targets) {
                    Some(rect) => self.centre_on(zoom, rect, self.targets.first().copied(), false),
                    None => self.fit(),
                }
            }
            Viewport::Manual(view) => self.clamp(view),
        }
    }

    /// The largest zoom level at which the whole drawing (a small graph's, or any drawing without a
    /// focus) fits, else the largest up to bordered boxes at which the targets fit, else the
    /// smallest level with u in view.
    pub fn fit(&self) -> View {
        let (w, h) = self.room();
        let fits = |r: CellRect| r.width <= w && r.height <= h;
        let anchor = self.targets.first().copied();
        if self.whole || self.targets.is_empty() {
            for zoom in (0..ZOOM_LEVELS).rev() {
                let (cw, ch) = self.content(zoom);
                if fits(CellRect { x: 0, y: 0, width: cw, height: ch }) {
                    return self.centre_on(zoom, CellRect { x: 0, y: 0, width: cw, height: ch }, None, true);
                }
            }
        }
        for zoom in (0..=BOXED_ZOOM).rev() {
            if let Some(rect) = self.targets_rect(zoom, self.targets).filter(|&r| fits(r)) {
                return self.centre_on(zoom, rect, anchor, true);
            }
        }
        match self.targets_rect(0, self.targets) {
            Some(rect) => self.centre_on(0, rect, anchor, true),
            None => self.clamp(View { zoom: 0, x: 0, y: 0 }),
        }
    }

    /// Centred on `rect`, kept inside the drawing, and shifted so that node `anchor` (and its
    /// parent, when both fit) is in view. A fitted view (`fitted`) keeps `rect` before the
    /// parent: the parent then comes only where it fits with `rect`, so that it never pushes v out
    /// of the view that `z` promises fits u and v.
    fn centre_on(&self, zoom: usize, rect: CellRect, anchor: Option<usize>, fitted: bool) -> View {
        let (w, h) = self.room();
        let view = View { zoom, x: rect.x + rect.width / 2 - w / 2, y: rect.y + rect.height / 2 - h / 2 };
        let view = self.clamp(view);
        match anchor {
            Some(a) => self.keep_with_parent(view, a, Some(rect).filter(|_| fitted)),
            None => view,
        }
    }

    /// `view` moved as little as needed to show node `index` with the marker row above it, and
    /// its parent's box too when the two fit the area together with `with` (what else must stay
    /// in view: u and v), which is kept wherever it fits with the node.
    fn keep_with_parent(&self, view: View, index: usize, with: Option<CellRect>) -> View {
        let Some(node) = self.node(view.zoom, index) else { return view };
        let node = CellRect { y: node.y - 1, height: node.height + 1, ..node };
        let (w, h) = self.room();
        let fits = |r: CellRect| r.width <= w && r.height <= h;
        let kept = with.map_or(node, |rect| node.union(rect));
        let kept = if fits(kept) { kept } else { node };
        let parent = self.parent(index).and_then(|p| self.node(view.zoom, p)).map(|p| kept.union(p));
        let view = match parent.filter(|&r| fits(r)) {
            Some(r) => self.keep(view, r),
            None => self.keep(view, kept),
        };
        self.keep(view, node)
    }

    /// `view` moved as little as needed to show `rect` wholly; unmoved when `rect` is larger than
    /// the area.
    fn keep(&self, view: View, rect: CellRect) -> View {
        let (w, h) = self.room();
        if rect.width > w || rect.height > h {
            return view;
        }
        View {
            x: view.x.max(rect.x + rect.width - w).min(rect.x),
            y: view.y.max(rect.y + rect.height - h).min(rect.y),
            ..view
        }
    }

    /// Node `index`'s parent in the drawing: the box its DFS tree edge (or the search's path)
    /// leaves, else the first box with an edge into it.
    pub fn parent(&self, index: usize) -> Option<usize> {
        let edges = &self.picture.edges;
        let into =
            |tree: bool| edges.iter().find(|e| e.to == index && (e.kind != EdgeKind::Other) == tree).map(|e| e.from);
        into(true).or_else(|| into(false))
    }

    /// Keeps the drawing on screen: a drawing wider (taller) than the area may be moved until its
    /// edge meets the area's, a smaller one within the area.
    pub fn clamp(&self, view: View) -> View {
        let zoom = view.zoom.min(ZOOM_LEVELS - 1);
        let (w, h) = self.room();
        let (cw, ch) = self.content(zoom);
        let axis = |at: i64, size: i64, room: i64| at.clamp((size - room).min(0), (size - room).max(0));
        View { zoom, x: axis(view.x, cw, w), y: axis(view.y, ch, h) }
    }

    /// Moved by a quarter of the area (`dx`, `dy` in quarters).
    pub fn pan(&self, view: View, dx: i64, dy: i64) -> View {
        let (w, h) = self.room();
        self.clamp(View { x: view.x + dx * (w / 4).max(1), y: view.y + dy * (h / 4).max(1), ..view })
    }

    /// At zoom level `zoom`, keeping the point at the centre of the area where it was.
    pub fn zoom(&self, view: View, zoom: usize) -> View {
        let zoom = zoom.min(ZOOM_LEVELS - 1);
        let (w, h) = self.room();
        let (cw, ch) = self.content(view.zoom);
        let (nw, nh) = self.content(zoom);
        let scale = |at: i64, room: i64, old: i64, new: i64| {
            let centre = at + room / 2;
            if old <= 0 { -room / 2 } else { centre * new / old - room / 2 }
        };
        self.clamp(View { zoom, x: scale(view.x, w, cw, nw), y: scale(view.y, h, ch, nh) })
    }

    /// Where node `index`'s box lies outside `view`: `left`, `right`, `above`, `below` or two of
    /// them (`above, left`); None when it is wholly in view.
    pub fn beyond(&self, view: View, index: usize) -> Option<String> {
        if self.shows(view, index) {
            return None;
        }
        let (w, h) = self.room();
        let r = self.node(view.zoom, index)?;
        // Along one axis: before the view's start, past its end, or within.
        let side = |at: i64, size: i64, start: i64, room: i64, [before, after]: [&'static str; 2]| {
            if at < start {
                Some(before)
            } else if at + size > start + room {
                Some(after)
            } else {
                None
            }
        };
        let vertical = side(r.y, r.height, view.y, h, ["above", "below"]);
        let horizontal = side(r.x, r.width, view.x, w, ["left", "right"]);
        Some([vertical, horizontal].into_iter().flatten().collect::<Vec<_>>().join(", "))
    }

    /// Whether node `index`'s box is wholly in `view`.
    pub fn shows(&self, view: View, index: usize) -> bool {
        let (w, h) = self.room();
        self.node(view.zoom, index).is_some_and(|r| {
            r.x >= view.x && r.y >= view.y && r.x + r.width <= view.x + w && r.y + r.height <= view.y + h
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{self, Sources, Subgraph};
    use crate::graph::Graph;

    /// A long chain 0 -> 1 -> ... -> 39 beside a fan 40 -> 41..=79: wide and tall.
    fn big() -> Picture {
        let mut edges: Vec<(u32, u32)> = (0..39).map(|v| (v, v + 1)).collect();
        edges.extend((41..80).map(|v| (40, v)));
        let dag = Graph::from_edges(80, &edges).unwrap();
        let sources = Sources::bare(&dag);
        draw::build(&sources, &Subgraph::whole(&dag).unwrap(), "big").unwrap()
    }

    #[test]
    fn a_pair_too_far_apart_keeps_u_in_view_towards_v() {
        let picture = big();
        let (u, v) = (picture.node_of(0).unwrap(), picture.node_of(39).unwrap());
        let frame = Scene { picture: &picture, whole: false, targets: &[u, v], area: Rect::new(0, 0, 60, 20) };
        let view = frame.fit();
        assert_eq!(view.zoom, 0);
        assert!(frame.shows(view, u), "{view:?}");
        let below = frame.pan(view, 0, 1);
        assert!(below.y > view.y, "the view can move on towards v");
    }

    #[test]
    fn a_small_drawing_is_centred() {
        let dag = Graph::from_edges(2, &[(0, 1)]).unwrap();
        let sources = Sources::bare(&dag);
        let picture = draw::build(&sources, &Subgraph::whole(&dag).unwrap(), "two").unwrap();
        let frame = Scene { picture: &picture, whole: true, targets: &[], area: Rect::new(0, 0, 100, 40) };
        let view = frame.fit();
        assert_eq!(view.zoom, ZOOM_LEVELS - 1, "the largest level: the drawing spreads out");
        assert!(view.x < 0 && view.y < 0, "centred: {view:?}");
        // Panning cannot push it off screen.
        let moved = frame.pan(view, -40, -40);
        assert!(frame.shows(moved, 0) && frame.shows(moved, 1), "{moved:?}");
        let zero = Scene { area: Rect::default(), ..frame };
        let _ = zero.pan(zero.zoom(zero.fit(), 0), 3, 3);
    }
}
