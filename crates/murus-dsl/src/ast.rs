//! The spanned syntax tree of a rule file.
//!
//! [`crate::parse`] builds it; the compiler lowers it to [`crate::Rules`].
//! Nothing here is checked beyond the grammar: names may be unknown, numbers
//! out of range, statements repeated. Every node keeps the [`Span`] it was
//! written at, so those checks can still point at the source.

pub use crate::diagnostic::Span;
use crate::rules::{Material, Stalemate, Timing};

/// A value with the span it was written at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }
}

/// A word: a player letter, a direction, an edge, a file or a cell name.
pub type Name = Spanned<String>;
/// A string literal's contents (escapes resolved); the span covers the quotes.
pub type Str = Spanned<String>;
/// A number where the language takes one: written in decimal (`8`), or a
/// declared parameter standing for one (`$files`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number {
    /// The value. `None` when the decimal does not fit in a `u32`, and for
    /// a parameter until the compiler resolves it (it stays `None` for an
    /// unknown parameter, which is reported as such).
    pub value: Option<u32>,
    /// The number as written, `$` and name included for a parameter.
    pub span: Span,
    /// The parameter's name, without the `$`, when written `$NAME`.
    pub param: Option<String>,
}

impl Number {
    /// A number written in decimal (`None` when it does not fit).
    pub fn literal(value: Option<u32>, span: Span) -> Number {
        Number {
            value,
            span,
            param: None,
        }
    }

    /// A reference to the parameter `name` (without the `$`), unresolved.
    pub fn param(name: impl Into<String>, span: Span) -> Number {
        Number {
            value: None,
            span,
            param: Some(name.into()),
        }
    }
}

/// A whole rule file: its top-level items in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleFile {
    pub items: Vec<Item>,
    pub span: Span,
}

/// A top-level statement or block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `variant "NAME"`
    Variant(Spanned<Str>),
    /// `title "TEXT"`
    Title(Spanned<Str>),
    /// `board rect W x H` / `board hex N`, optionally `without CELLSET`.
    Board(Spanned<Board>),
    /// `player "NAME" { … }`
    Player(Player),
    /// `turns L L …`
    Turns(Spanned<Turns>),
    /// `setup { L HEIGHT on CELLSET … }`
    Setup(Block<SetupLine>),
    /// `stack limit N [for L …]`
    StackLimit(Spanned<StackLimit>),
    /// `sow { … }`
    Sow(Block<SowField>),
    /// `sacrifice { … }`
    Sacrifice(Block<SacrificeField>),
    /// `catapult { … }`
    Catapult(Block<CatapultField>),
    /// `win { … }`
    Win(Block<WinField>),
    /// `draw { … }`
    Draw(Block<DrawField>),
    /// `opening pie { … }`
    Opening(Block<PieLine>),
    /// `param NAME = LOW..HIGH [default V]` or `param NAME = A, B, … [default V]`
    Param(Spanned<ParamDecl>),
    /// `introduction "PARAGRAPH" …`: the designer's introduction, a string
    /// a paragraph.
    Introduction(Spanned<Vec<Str>>),
    /// `caption FIGURE "TEXT"`: the designer's caption of a figure.
    Caption(Spanned<Caption>),
}

/// `caption FIGURE "TEXT"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caption {
    /// The figure's name (`start`, `throw`), as written.
    pub figure: Name,
    pub text: Str,
}

impl Item {
    /// The statement's keyword as written (`stack limit` for the limit).
    pub fn keyword(&self) -> &'static str {
        match self {
            Item::Variant(_) => "variant",
            Item::Title(_) => "title",
            Item::Board(_) => "board",
            Item::Player(_) => "player",
            Item::Turns(_) => "turns",
            Item::Setup(_) => "setup",
            Item::StackLimit(_) => "stack limit",
            Item::Sow(_) => "sow",
            Item::Sacrifice(_) => "sacrifice",
            Item::Catapult(_) => "catapult",
            Item::Win(_) => "win",
            Item::Draw(_) => "draw",
            Item::Opening(_) => "opening",
            Item::Param(_) => "param",
            Item::Introduction(_) => "introduction",
            Item::Caption(_) => "caption",
        }
    }

    /// The span to point at when talking about the item as a whole: the
    /// statement for one-line statements, the head (`player "Romans"`,
    /// `sow`) for blocks.
    pub fn head(&self) -> Span {
        match self {
            Item::Variant(s) | Item::Title(s) => s.span,
            Item::Board(s) => s.span,
            Item::Player(p) => p.head,
            Item::Turns(s) => s.span,
            Item::StackLimit(s) => s.span,
            Item::Setup(b) => b.head,
            Item::Sow(b) => b.head,
            Item::Sacrifice(b) => b.head,
            Item::Catapult(b) => b.head,
            Item::Win(b) => b.head,
            Item::Draw(b) => b.head,
            Item::Opening(b) => b.head,
            Item::Param(p) => p.span,
            Item::Introduction(i) => i.span,
            Item::Caption(c) => c.span,
        }
    }
}

/// `param NAME = VALUES [default V]`: a name that `$NAME` stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDecl {
    /// The name, without `$`.
    pub name: Name,
    /// The values it may take; the span covers them as written (`7..9`).
    pub values: Spanned<ParamValues>,
    /// `default V`, if written.
    pub default: Option<Number>,
}

impl ParamDecl {
    /// What an instantiation rewrites: the values through the default.
    pub fn value_span(&self) -> Span {
        match &self.default {
            Some(d) => self.values.span.to(d.span),
            None => self.values.span,
        }
    }
}

/// The values of a parameter, as written (plain decimals, never `$NAME`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValues {
    /// `LOW..HIGH`, both included.
    Range { low: Number, high: Number },
    /// `A, B, …`
    List(Vec<Number>),
}

/// `stack limit N`, or `stack limit N for L …` (those players' own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackLimit {
    pub limit: Number,
    /// The players of `for L …`; empty for the shared limit.
    pub players: Vec<Name>,
}

/// A keyword, braces and the statements between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block<F> {
    /// The block's keyword(s): `sow`, `opening pie`, `sow for r`.
    pub head: Span,
    /// The players of `for L …` (`sow for r { … }`): the block is theirs
    /// alone. Empty for a shared block, and always for the blocks that take
    /// no `for` (`setup`, `draw`, `opening`).
    pub players: Vec<Name>,
    /// Statements in source order.
    pub fields: Vec<Spanned<F>>,
    /// Up to and including the closing brace.
    pub span: Span,
}

/// The board statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub shape: Spanned<Shape>,
    /// Cells removed from the shape.
    pub without: Option<CellSet>,
}

/// A board shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `rect W x H`
    Rect { width: Number, height: Number },
    /// `hex N`
    Hex { side: Number },
}

/// `player "NAME" { … }`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub name: Str,
    /// `player "NAME"`
    pub head: Span,
    pub fields: Vec<Spanned<PlayerField>>,
    pub span: Span,
}

/// A statement of a player block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerField {
    /// `letter L`
    Letter(Name),
    /// `colour "#rrggbb"`
    Colour(Str),
    /// `home CELLSET`
    Home(CellSet),
    /// `forward DIR`
    Forward(Name),
}

impl PlayerField {
    pub fn keyword(&self) -> &'static str {
        match self {
            PlayerField::Letter(_) => "letter",
            PlayerField::Colour(_) => "colour",
            PlayerField::Home(_) => "home",
            PlayerField::Forward(_) => "forward",
        }
    }
}

/// `L HEIGHT on CELLSET`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupLine {
    pub player: Name,
    pub height: Number,
    pub cells: CellSet,
}

/// A statement of the sow block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SowField {
    /// `heights H, H…`
    Heights(Vec<Number>),
    /// `directions DIRSET`
    Directions(DirSet),
    /// `onto TARGET, TARGET…`
    Onto(Vec<Spanned<Target>>),
    /// `on enemy: capture` (`None`) or `on enemy: remove N`.
    OnEnemy(Spanned<Option<Number>>),
}

impl SowField {
    pub fn keyword(&self) -> &'static str {
        match self {
            SowField::Heights(_) => "heights",
            SowField::Directions(_) => "directions",
            SowField::Onto(_) => "onto",
            SowField::OnEnemy(_) => "on enemy",
        }
    }
}

/// Where a sown or thrown stone may land.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `empty`
    Empty,
    /// `own H`: an own stack of height H (sowing).
    Own(Number),
    /// `enemy H`: an enemy stack of height H (throwing, or sowing that
    /// captures).
    Enemy(Number),
    /// `enemy any`
    EnemyAny,
}

/// A statement of the sacrifice block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SacrificeField {
    /// `directions DIRSET`
    Directions(DirSet),
    /// `A against T: lose L, remove R`
    Rule(SacrificeLine),
}

/// `A against T: lose L, remove R`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SacrificeLine {
    pub attacker: Number,
    pub target: Number,
    pub lose: Number,
    pub remove: Number,
}

/// A statement of the catapult block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatapultField {
    /// `height H`
    Height(Number),
    /// `directions DIRSET`
    Directions(DirSet),
    /// `range N, N…`
    Range(Vec<Number>),
    /// `onto TARGET, TARGET…`
    Onto(Vec<Spanned<Target>>),
    /// `on empty: wall|lost`: `true` when the thrown stone stays as a wall.
    OnEmpty(Spanned<bool>),
    /// `on enemy: remove N`
    OnEnemy(Number),
}

impl CatapultField {
    pub fn keyword(&self) -> &'static str {
        match self {
            CatapultField::Height(_) => "height",
            CatapultField::Directions(_) => "directions",
            CatapultField::Range(_) => "range",
            CatapultField::Onto(_) => "onto",
            CatapultField::OnEmpty(_) => "on empty",
            CatapultField::OnEnemy(_) => "on enemy",
        }
    }
}

/// How a stone may arrive on an opponent's home to break through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// `sow`
    Sow,
    /// `throw`
    Throw,
}

/// `turns L L … [then L L …]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turns {
    /// The letters before `then` (or all of them without `then`).
    pub first: Vec<Name>,
    /// The letters after `then`: the cycle, `first` being the first round.
    pub then: Option<Vec<Name>>,
}

/// A statement of the win block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WinField {
    /// `breakthrough TIMING [by sow, throw]`
    Breakthrough(BreakthroughClause),
    /// `stalemate loses|draws`
    Stalemate(Spanned<Stalemate>),
    /// `occupy CELLSET [count K]`
    Occupy(CellSet, Option<Number>),
    /// `reduced to N stones|towers`
    Reduced(Number, Spanned<Material>),
    /// `capture N stones`
    Capture(Number, Spanned<Material>),
}

impl WinField {
    pub fn keyword(&self) -> &'static str {
        match self {
            WinField::Breakthrough(_) => "breakthrough",
            WinField::Stalemate(_) => "stalemate",
            WinField::Occupy(..) => "occupy",
            WinField::Reduced(..) => "reduced",
            WinField::Capture(..) => "capture",
        }
    }
}

/// `breakthrough TIMING [by sow, throw]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreakthroughClause {
    pub timing: Spanned<Timing>,
    /// `None` without `by`: every way of dropping a stone counts.
    pub by: Option<Vec<Spanned<Arrival>>>,
    /// `height H`: only a stack of at least `H` stones breaks through.
    pub height: Option<Number>,
    /// `count K`: only `K` stones on opponents' homes at once do.
    pub count: Option<Number>,
}

/// A statement of the draw block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawField {
    /// `repetition N`
    Repetition(Number),
    /// `plies N`
    Plies(Number),
    /// `adjudicate by stones|towers|stacks on CELLSET`, `adjudicate for L`
    Adjudicate(Spanned<Adjudicate>),
}

/// What decides a game at the ply cap, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Adjudicate {
    /// `by stones` or `by towers`
    Material(Material),
    /// `by stacks on CELLSET`
    Stacks(CellSet),
    /// `for L`: the game goes to this player.
    For(Name),
}

impl DrawField {
    pub fn keyword(&self) -> &'static str {
        match self {
            DrawField::Repetition(_) => "repetition",
            DrawField::Plies(_) => "plies",
            DrawField::Adjudicate(_) => "adjudicate",
        }
    }
}

/// `L from CELLSET to CELLSET` in `opening pie { … }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieLine {
    pub player: Name,
    pub from: CellSet,
    pub to: CellSet,
}

/// `TERM (('+' | '-') TERM)*`, evaluated left to right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellSet {
    pub first: Spanned<CellTerm>,
    pub rest: Vec<(SetOp, Spanned<CellTerm>)>,
    pub span: Span,
}

/// `+` or `-` between cell-set terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOp {
    Union,
    Difference,
}

/// One term of a cell set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellTerm {
    /// `rank N` (1-based)
    Rank(Number),
    /// `file X`
    File(Name),
    /// `edge NAME`
    Edge(Name),
    /// `cells NAME NAME…`
    Cells(Vec<Name>),
    /// `all`
    All,
}

/// A set of directions, resolved per player when lowering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirSet {
    /// `all`
    All(Span),
    /// `orthogonal`
    Orthogonal(Span),
    /// `diagonal`
    Diagonal(Span),
    /// `n, forward-left, (1, 2), …`
    List(Vec<DirItem>),
}

/// One item of a direction list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirItem {
    /// `n`, `forward-left`
    Named(Name),
    /// `(1, 2)` or `(1, 2) mirrored`
    Step(Spanned<StepVector>),
}

/// A step vector as written: `x` cells to the player's right, `y` forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepVector {
    pub x: i32,
    pub y: i32,
    /// `mirrored`: every image under the square's turns and reflections.
    pub mirrored: bool,
}
