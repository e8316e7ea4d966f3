//! The textual game language shared by the CLI and specs:
//!
//! ```text
//! expr  := term ('+' term)*              disjoint sum
//! term  := atom (':' atom)*              ordinal sum, binds tighter than '+'
//! atom  := '*' INT                       nimber
//!        | ('TER'|'DNT') start? '(' graph ')'
//!        | 'TER' '{' INT (',' INT)* '}'          multiset terminate game, e.g. TER{2,2,3}
//!        | 'DC' '(' INT ')'                     Dawson's Chess as a row of pins
//!        | OCTAL '(' INT (',' INT)* ')'         octal game on heaps, e.g. 0.137(17)
//!        | 'SPL' '(' INT ',' INT ')'            SPL(m,n), started at (m, Λ^n)
//!        | 'SPL' '(' INT ',' '[' INT,* ']' ')'  SPL started at (c, λ), e.g. SPL(3,[3])
//!        | 'SPL' '(' INT ',' ('Λ'|'L') '^' INT ')'   SPL started at (c, Λ^n)
//!        | 'UEG' '(' graph ',' vertex ')'       edge geography, e.g. UEG(SP_{6,2}, (1,1))
//!        | ('GEN'|'DNG') '(' structure ')'      closure games, e.g. GEN(Sym(4)), DNG(P_7)
//!        | ('TER'|'DNT') '(' structure ')'      removing games off graphs, e.g. DNT(Cyc(6))
//!        | HEAD '(' … ')'                      a registered family, e.g. NK(P_7) (game/family.rs)
//!        | '(' expr ')'
//! start := '_' '{' vertex (',' vertex)* '}'     e.g. DNT_{c,v1}(W_7)
//! ```
//!
//! Errors carry the byte offset of the offending character and render as a caret snippet (of a
//! window around it: a huge expression is never echoed whole).
//!
//! Hardening: nesting (parentheses and ordinal sums, which nest to the left) is limited to
//! [`MAX_DEPTH`] so that neither this parser nor the recursive solvers and printers of
//! [`AnyGame`] can overflow the stack; `TER{..}` is refused up front when its positions cannot
//! be counted in [`MAX_MULTISET_POSITIONS`].

use crate::game::multiset::MultisetGame;
use crate::game::octal::{OctalCode, OctalGame};
use crate::game::removing::{RemovingGame, Rule};
use crate::game::spl::Spl;
use crate::game::ueg::Ueg;
use crate::game::AnyGame;
use crate::graph::{parse_graph, split_top_level, Closure};
use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

pub use crate::game::family::FormDoc;

const fn form(syntax: &'static str, example: &'static str, meaning: &'static str) -> FormDoc {
    FormDoc {
        syntax,
        example,
        meaning,
    }
}

/// Every form of the grammar in the module header.
pub const FORMS: &[FormDoc] = &[
    form(
        "TER(G)",
        "TER(C_9)",
        "terminate removing game on a graph G (paper §3)",
    ),
    form("DNT(G)", "DNT(W_7)", "do-not-terminate removing game on G"),
    form(
        "TER_{S}(G), DNT_{S}(G)",
        "DNT_{c,v1}(W_7)",
        "started at the selected set S",
    ),
    form(
        "GEN(X), DNG(X)",
        "GEN(Sym(4))",
        "building games on a structure X (below): players select elements; in GEN the move that generates X wins, in DNG no move may generate X",
    ),
    form(
        "TER(X), DNT(X)",
        "TER(Bool(3))",
        "the removing games on a structure X that is not a graph (a group, poset, …)",
    ),
    form("*k", "*2", "nimber (a nim heap of size k)"),
    form("A + B", "DNT(P_4) + *1", "disjoint sum"),
    form(
        "A : B",
        "*2 : DNT(P_4)",
        "ordinal sum (binds tighter than +)",
    ),
    form(
        "TER{u1,...}",
        "TER{2,2,3}",
        "multiset terminate game TER(U) (§5.3)",
    ),
    form("DC(n)", "DC(17)", "Dawson's Chess as a row of n pins"),
    form(
        "0.d1d2...(h1,...)",
        "0.137(5,9)",
        "octal game on heaps h1, …",
    ),
    form(
        "SPL(m,n)",
        "SPL(2,4)",
        "splitting game started at (m, Λ^n) (§5.5)",
    ),
    form(
        "SPL(c,[l1,...])",
        "SPL(3,[3])",
        "splitting game started at (c, λ)",
    ),
    form(
        "UEG(G, v)",
        "UEG(SP_{6,2}, (1,1))",
        "undirected edge geography from vertex v (seed 002)",
    ),
    form("(A)", "(*1 + *1) : *1", "grouping"),
];

/// Every form: the grammar's ([`FORMS`]) and those of the registered families
/// ([`crate::game::family::FAMILIES`]).
pub fn forms() -> Vec<FormDoc> {
    let mut v = FORMS.to_vec();
    let last = v.pop();
    for f in crate::game::family::all() {
        v.extend_from_slice(f.forms());
    }
    // Grouping stays last.
    v.extend(last);
    v
}

/// The game language and the graph families as plain text (the long help of `solve`).
pub fn language_help() -> String {
    let mut s = String::from("Game language:\n");
    for f in forms() {
        s.push_str(&format!(
            "  {:<24} {:<22} {}\n",
            f.syntax, f.example, f.meaning
        ));
    }
    s.push_str("\nStructures X of GEN(X), DNG(X), TER(X), DNT(X):\n");
    for f in crate::game::closure::structure_forms() {
        s.push_str(&format!(
            "  {:<24} {:<22} {}\n",
            f.syntax, f.example, f.meaning
        ));
    }
    s.push_str("\nGraph families (G above):\n");
    for f in crate::graph::families::all_docs() {
        s.push_str(&format!(
            "  {:<14} {:<12} {}\n",
            f.syntax, f.example, f.meaning
        ));
    }
    s.push_str("\nThe features of a game's positions (for formulas): grundy features GAME");
    s
}

/// Deepest nesting of a game expression: parentheses, plus one level per `:` of an ordinal sum
/// (the solver, the printer and the drop glue of [`AnyGame`] recurse over it).
pub const MAX_DEPTH: usize = 64;

/// Most positions (sorted sub-multisets) a `TER{..}` start may have: the explicit stack and
/// the memo table of the solver grow with it.
pub const MAX_MULTISET_POSITIONS: u128 = 50_000_000;

/// Bytes of the expression kept around an error for its snippet.
const SNIPPET: usize = 120;

/// A malformed game expression, pointing at the offending character.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
#[error("bad game expression: {message}")]
#[diagnostic()]
pub struct ExprError {
    pub message: String,
    #[source_code]
    pub input: String,
    #[label("here")]
    pub span: SourceSpan,
    /// Byte offset of the offending character in the whole expression (`input` and `span`
    /// are only a window around it).
    pub at: usize,
}

impl ExprError {
    pub fn offset(&self) -> usize {
        self.at
    }
}

/// Options that apply to every graph game of an expression.
#[derive(Clone, Copy, Debug, Default)]
pub struct ParseOptions {
    pub closure: Closure,
}

/// Parses a game expression; a game played misère is refused (its nim-values are only
/// its outcomes: [`parse_game_for_outcomes`]).
pub fn parse_game(input: &str, opts: ParseOptions) -> Result<AnyGame, ExprError> {
    parse(input, opts, false)
}

/// Parses a game expression for an outcome claim, which alone may name a game played misère
/// (a game spec's `play: misere`); such a game is still refused in a sum or ordinal sum,
/// whose values are not its parts' under misère play.
pub fn parse_game_for_outcomes(input: &str, opts: ParseOptions) -> Result<AnyGame, ExprError> {
    parse(input, opts, true)
}

fn parse(input: &str, opts: ParseOptions, misere: bool) -> Result<AnyGame, ExprError> {
    let mut p = Parser {
        s: input,
        pos: 0,
        opts,
        depth: 0,
        misere,
    };
    let (g, _) = p.expr()?;
    p.ws();
    if p.pos < p.s.len() {
        return Err(p.err(
            p.pos,
            1,
            "unexpected text after the game (expected `+`, `:` or the end)",
        ));
    }
    Ok(g)
}

/// Substitutes parameter values for whole-word occurrences of their names (`W_n` with n=7
/// becomes `W_7`). A word boundary is any character that is not a letter or digit.
pub fn substitute<V: std::fmt::Display>(template: &str, params: &[(String, V)]) -> String {
    let mut out = String::new();
    let chars: Vec<char> = template.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_alphabetic() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_alphanumeric() {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            match params.iter().find(|(n, _)| *n == word) {
                Some((_, v)) => out.push_str(&v.to_string()),
                None => out.push_str(&word),
            }
            i = j;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

struct Parser<'a> {
    s: &'a str,
    pos: usize,
    opts: ParseOptions,
    /// Parentheses open at the current point.
    depth: usize,
    /// Whether a game played misère may be named ([`parse_game_for_outcomes`]).
    misere: bool,
}

/// The largest char boundary of `s` at or below `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Positions of `TER{u1,...}`: the sorted sub-multisets, counted per group of equal elements
/// (k copies of v give C(v + k, k) sorted choices), a bound that is exact for one group.
fn multiset_positions(u: &[u32]) -> u128 {
    let mut sorted = u.to_vec();
    sorted.sort_unstable();
    let mut total: u128 = 1;
    for g in sorted.chunk_by(|a, b| a == b) {
        let (v, k) = (g[0] as u128, g.len() as u128);
        // C(v + k, k) = prod_{i=1..k} (v + i) / i, exact at every step; stop once too large.
        let mut c: u128 = 1;
        for i in 1..=k {
            c = c.saturating_mul(v + i) / i;
            if c > MAX_MULTISET_POSITIONS {
                return u128::MAX;
            }
        }
        total = total.saturating_mul(c);
        if total > MAX_MULTISET_POSITIONS {
            return u128::MAX;
        }
    }
    total
}

impl<'a> Parser<'a> {
    fn err(&self, at: usize, len: usize, msg: impl Into<String>) -> ExprError {
        let at = at.min(self.s.len());
        let len = len.min(self.s.len() - at);
        // Only a window around the offending text goes into the snippet.
        let from = floor_boundary(self.s, at.saturating_sub(SNIPPET));
        let to = floor_boundary(
            self.s,
            at.saturating_add(len.min(SNIPPET)).saturating_add(SNIPPET),
        );
        let mut message: String = msg.into();
        if message.len() > 4 * SNIPPET {
            message.truncate(floor_boundary(&message, 4 * SNIPPET));
            message.push('…');
        }
        let (prefix, shift) = if from > 0 {
            ("…", "…".len())
        } else {
            ("", 0)
        };
        let suffix = if to < self.s.len() { "…" } else { "" };
        let at_in = at - from + shift;
        let len_in = len.min(to.saturating_sub(at));
        ExprError {
            message,
            input: format!("{prefix}{}{suffix}", &self.s[from..to]),
            span: (at_in, len_in).into(),
            at,
        }
    }

    fn too_deep(&self, at: usize) -> ExprError {
        self.err(
            at,
            1,
            format!("the expression nests deeper than {MAX_DEPTH} levels (parentheses and `:`)"),
        )
    }

    fn ws(&mut self) {
        while self.s[self.pos..].starts_with(char::is_whitespace) {
            self.pos += self.s[self.pos..].chars().next().map_or(1, char::len_utf8);
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.ws();
        self.s[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), ExprError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(self.pos, 1, format!("expected `{c}`")))
        }
    }

    /// A game and the depth of its tree (a leaf is 0).
    fn expr(&mut self) -> Result<(AnyGame, usize), ExprError> {
        let at = {
            self.ws();
            self.pos
        };
        let (first, mut depth) = self.term()?;
        let mut parts = vec![first];
        while self.eat('+') {
            let (g, d) = self.term()?;
            parts.push(g);
            depth = depth.max(d);
        }
        if parts.len() > 1 {
            if let Some(why) = parts.iter().find_map(AnyGame::misere) {
                return Err(self.err(at, self.pos - at, format!("{why}; a sum adds nim-values, which misère play does not: a game played misère cannot be a part of a sum")));
            }
        }
        Ok(if parts.len() == 1 {
            (parts.pop().expect("one part"), depth)
        } else {
            (AnyGame::Sum(parts), depth + 1)
        })
    }

    fn term(&mut self) -> Result<(AnyGame, usize), ExprError> {
        let (mut g, mut depth) = self.atom()?;
        loop {
            let at = {
                self.ws();
                self.pos
            };
            if !self.eat(':') {
                break;
            }
            let (h, d) = self.atom()?;
            depth = depth.max(d) + 1;
            if depth + self.depth > MAX_DEPTH {
                return Err(self.too_deep(at));
            }
            if let Some(why) = g.misere().or_else(|| h.misere()) {
                return Err(self.err(at, 1, format!("{why}; an ordinal sum is of normal-play games: a game played misère cannot be a part of one")));
            }
            g = AnyGame::Ordinal(Box::new(g), Box::new(h));
        }
        Ok((g, depth))
    }

    fn ident(&mut self) -> &'a str {
        self.ws();
        let rest = &self.s[self.pos..];
        // An underscore joins words (a game spec's `UNK_WRONG`, issue 45) but never opens
        // a subscript (`DNT_{v1}`): it belongs to the name when a letter follows.
        let b = rest.as_bytes();
        let mut len = 0;
        while len < b.len() {
            let c = b[len];
            let joins = c == b'_'
                && len > 0
                && b.get(len + 1).is_some_and(|c| c.is_ascii_alphabetic())
                && !matches!(&rest[..len], "TER" | "DNT" | "GEN" | "DNG");
            if !(c.is_ascii_alphanumeric() || c == b'.' || joins) {
                break;
            }
            len += 1;
        }
        self.pos += len;
        &rest[..len]
    }

    fn int(&mut self) -> Result<u64, ExprError> {
        self.ws();
        let start = self.pos;
        let rest = &self.s[self.pos..];
        let len = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(self.err(start, 1, "expected a non-negative integer"));
        }
        self.pos += len;
        rest[..len]
            .parse::<u64>()
            .map_err(|_| self.err(start, len, "integer too large"))
    }

    /// `INT (',' INT)*` followed by `close` (consumed); an empty list when `allow_empty`.
    fn int_list(&mut self, close: char, allow_empty: bool) -> Result<Vec<u64>, ExprError> {
        let mut out = Vec::new();
        if allow_empty && self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.int()?);
            if self.eat(close) {
                return Ok(out);
            }
            if !self.eat(',') {
                return Err(self.err(self.pos, 1, format!("expected `,` or `{close}`")));
            }
        }
    }

    /// A heap size or similar count that must fit in 32 bits.
    fn small(&self, v: u64, at: usize) -> Result<u32, ExprError> {
        u32::try_from(v).map_err(|_| self.err(at, self.pos - at, "number too large"))
    }

    /// Text up to the parenthesis that closes one already consumed.
    fn balanced(&mut self, open_at: usize) -> Result<(usize, &'a str), ExprError> {
        let start = self.pos;
        let mut depth = 1;
        for (i, c) in self.s[start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = start + i + 1;
                        return Ok((start, &self.s[start..start + i]));
                    }
                }
                _ => {}
            }
        }
        Err(self.err(open_at, 1, "this parenthesis is never closed"))
    }

    fn atom(&mut self) -> Result<(AnyGame, usize), ExprError> {
        let at = {
            self.ws();
            self.pos
        };
        if self.peek() == Some('(') {
            self.pos += 1;
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(self.too_deep(at));
            }
            let (g, d) = self.expr()?;
            self.expect(')')?;
            self.depth -= 1;
            return Ok((g, d));
        }
        self.leaf().map(|g| (g, 0))
    }

    fn leaf(&mut self) -> Result<AnyGame, ExprError> {
        let at = {
            self.ws();
            self.pos
        };
        match self.peek() {
            None => {
                return Err(self.err(at, 1, "expected a game, found the end of the expression"))
            }
            Some('*') => {
                self.pos += 1;
                let k = self.int()?;
                let k = u32::try_from(k)
                    .map_err(|_| self.err(at, self.pos - at, "nimber too large"))?;
                return Ok(AnyGame::Nimber(k));
            }
            _ => {}
        }
        let name = self.ident();
        if name == "TER" && self.s[self.pos..].starts_with('{') {
            self.pos += 1;
            let vat = self.pos;
            let u = self.int_list('}', true)?;
            let u = u
                .into_iter()
                .map(|x| self.small(x, vat))
                .collect::<Result<Vec<_>, _>>()?;
            if multiset_positions(&u) > MAX_MULTISET_POSITIONS {
                return Err(self.err(
                    at,
                    self.pos - at,
                    format!("TER{{..}} with these elements has more than {MAX_MULTISET_POSITIONS} positions; refused before solving"),
                ));
            }
            return Ok(AnyGame::Multiset(MultisetGame::new(u)));
        }
        if let Some(family) = crate::game::family::lookup(name) {
            let open = self.pos;
            self.expect('(')?;
            let (gat, text) = self.balanced(open)?;
            let g = family
                .parse(name, text, self.opts.closure)
                .map_err(|e| self.err(gat, text.len().max(1), e))?;
            if let (false, Some(why)) = (self.misere, g.misere()) {
                return Err(self.err(
                    open.saturating_sub(name.len()),
                    name.len(),
                    format!("{why}: only `outcome:` claims are checked for it, since {}: no `nim:`/`value:` claim, `holds:`, table, figure, diagram, solve or features of it", crate::game::user::misere::OUTCOMES_ONLY),
                ));
            }
            return Ok(AnyGame::Family(g));
        }
        match name {
            "TER" | "DNT" => {
                let rule = if name == "TER" { Rule::Ter } else { Rule::Dnt };
                let start_text = if self.s[self.pos..].starts_with("_{") {
                    self.pos += 2;
                    let from = self.pos;
                    let close = self.s[from..]
                        .find('}')
                        .ok_or_else(|| self.err(from - 1, 1, "start set `{` is never closed"))?;
                    self.pos = from + close + 1;
                    Some((from, &self.s[from..from + close]))
                } else {
                    None
                };
                let open = self.pos;
                self.expect('(')?;
                let (gat, text) = self.balanced(open)?;
                if start_text.is_none() && parse_graph(text).is_err() {
                    if let Some(g) = self.closure_game(name, gat, text, false)? {
                        return Ok(g);
                    }
                }
                let graph =
                    parse_graph(text).map_err(|e| self.err(gat, text.len(), e.to_string()))?;
                let start = match start_text {
                    None => 0,
                    Some((sat, st)) => graph
                        .parse_set(st)
                        .map_err(|e| self.err(sat, st.len(), e.to_string()))?,
                };
                let g = RemovingGame::new(rule, graph, self.opts.closure, start)
                    .map_err(|e| self.err(at, self.pos - at, e.to_string()))?;
                Ok(AnyGame::Removing(g))
            }
            "DC" => {
                self.expect('(')?;
                let nat = {
                    self.ws();
                    self.pos
                };
                let n = self.int()?;
                self.expect(')')?;
                crate::game::dawson::dc_game(n).map_err(|e| self.err(nat, self.pos - nat - 1, e.to_string()))
            }
            "SPL" => self.spl(at),
            "GEN" | "DNG" => {
                let open = self.pos;
                self.expect('(')?;
                let (gat, text) = self.balanced(open)?;
                self.closure_game(name, gat, text, true)
                    .map(|g| g.expect("closure_game answers when asked to"))
            }
            "UEG" => {
                let open = self.pos;
                self.expect('(')?;
                let (tat, text) = self.balanced(open)?;
                // A graph6 string has no comma, but may hold brackets (`C]`): split at the comma.
                let parts = if text.trim_start().starts_with("graph6:") {
                    text.splitn(2, ',').collect()
                } else {
                    split_top_level(text, ',')
                };
                if parts.len() != 2 {
                    return Err(self.err(
                        tat,
                        text.len().max(1),
                        "expected a graph and a token vertex, e.g. UEG(SP_{6,2}, (1,1))",
                    ));
                }
                let graph = crate::graph::parse_large_graph(parts[0])
                    .map_err(|e| self.err(tat, parts[0].len().max(1), e.to_string()))?;
                let vat = tat + parts[0].len() + 1;
                let lead = parts[1].len() - parts[1].trim_start().len();
                Ueg::with_token_name(graph, parts[1])
                    .map(AnyGame::Ueg)
                    .map_err(|e| {
                        self.err(vat + lead, parts[1].trim().len().max(1), e.to_string())
                    })
            }
            code if code.contains('.') => {
                let code = OctalCode::parse(code)
                    .map_err(|e| self.err(at, code.len(), e.to_string()))?;
                self.expect('(')?;
                let hat = self.pos;
                let heaps = self.int_list(')', false)?;
                let heaps = heaps
                    .into_iter()
                    .map(|h| self.small(h, hat))
                    .collect::<Result<Vec<_>, _>>()?;
                OctalGame::new(code, heaps)
                    .map(AnyGame::Octal)
                    .map_err(|e| self.err(hat, self.pos - hat - 1, e.to_string()))
            }
            "" => Err(self.err(
                at,
                1,
                "expected a game such as TER(C_9), DNT(W_7), DC(5), 0.137(5), SPL(2,4), UEG(C_4, v1) or *2",
            )),
            other => {
                let registered: Vec<&str> = crate::game::family::all()
                    .into_iter()
                    .flat_map(|f| f.heads().iter().copied())
                    .collect();
                Err(self.err(
                    at,
                    other.len(),
                    format!("unknown game `{other}` (expected TER, DNT, GEN, DNG, DC, SPL, UEG, {}, an octal code such as 0.137, or *k)", registered.join(", ")),
                ))
            }
        }
    }

    /// `word(text)` as a closure game ([`crate::game::closure::OPERATORS`]); `Ok(None)` when
    /// not `always` and no operator but a graph closure recognises the text (the caller then
    /// reports its own graph error).
    fn closure_game(
        &self,
        word: &str,
        at: usize,
        text: &str,
        always: bool,
    ) -> Result<Option<AnyGame>, ExprError> {
        use crate::game::closure::{read_structure, ClosureGame};
        let read = if always {
            read_structure(text, self.opts.closure)
        } else {
            match crate::game::closure::read_off_graphs(text, self.opts.closure) {
                Some(r) => r,
                None => return Ok(None),
            }
        };
        let op = read.map_err(|e| self.err(at, text.len().max(1), e))?;
        ClosureGame::named(word, op)
            .map(|g| Some(AnyGame::Closure(g)))
            .ok_or_else(|| self.err(at, text.len().max(1), format!("unknown game `{word}`")))
    }

    /// `SPL(m,n)`, `SPL(c,[l1,...])` or `SPL(c,Λ^n)`; the name is already consumed.
    fn spl(&mut self, at: usize) -> Result<AnyGame, ExprError> {
        self.expect('(')?;
        let c = self.int()?;
        self.expect(',')?;
        let sat = {
            self.ws();
            self.pos
        };
        let game = if self.eat('[') {
            let parts = self.int_list(']', true)?;
            Spl::at_parts(c, &parts)
        } else if self.eat('Λ') || self.eat('L') {
            self.expect('^')?;
            let n = self.int()?;
            Spl::at_lambda(c, n)
        } else if self.peek().is_some_and(|ch| ch.is_ascii_digit()) {
            let n = self.int()?;
            Spl::new(c, n)
        } else {
            return Err(self.err(
                sat,
                1,
                "expected n, a partition such as [3,1] or Λ^n (also written L^n)",
            ));
        };
        let end = self.pos;
        self.expect(')')?;
        game.map(AnyGame::Spl)
            .map_err(|e| self.err(at, end - at, e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nim(s: &str) -> u32 {
        parse_game(s, ParseOptions::default()).unwrap().solve().nim
    }

    #[test]
    fn every_documented_form_parses() {
        for f in forms() {
            parse_game(f.example, ParseOptions::default())
                .unwrap_or_else(|e| panic!("{}: {}", f.example, e.message));
        }
        assert!(language_help().contains("UEG(G, v)"));
        assert!(language_help().contains("NK(G)"));
        assert!(parse_game("TERM(C_9)", ParseOptions::default()).is_err());
    }

    /// A registered head that the grammar already reads would never be reached.
    #[test]
    fn registered_heads_are_new_and_distinct() {
        let builtin = ["TER", "DNT", "GEN", "DNG", "DC", "SPL", "UEG", ""];
        let mut seen = std::collections::BTreeSet::new();
        for f in crate::game::family::FAMILIES {
            for h in f.heads() {
                assert!(
                    !builtin.contains(h) && !h.contains('.'),
                    "`{h}` is the grammar's"
                );
                assert!(seen.insert(*h), "`{h}` is registered twice");
                assert!(crate::game::family::lookup(h).is_some());
            }
        }
        assert!(crate::game::family::lookup("TER").is_none());
        let e = parse_game("NK(P_3", ParseOptions::default()).unwrap_err();
        assert!(
            e.message.contains("never closed") || e.message.contains("expected"),
            "{}",
            e.message
        );
        let e = parse_game("NK(Q_9)", ParseOptions::default()).unwrap_err();
        assert!(e.message.contains("64"), "{}", e.message);
        let e = parse_game("NKK(P_3)", ParseOptions::default()).unwrap_err();
        assert!(e.message.contains("NK,"), "{}", e.message);
    }

    #[test]
    fn parses_and_solves() {
        assert_eq!(nim("TER(P_3)"), 2);
        assert_eq!(nim("DNT(P_3) + *1"), 0);
        assert_eq!(nim("*2 : DNT(P_4)"), 2);
        assert_eq!(nim("*3 + *5"), 6);
        assert_eq!(nim("*3 : *1"), 3 + 1);
        assert_eq!(nim("DNT_{c,v1}(W_7) + *0"), nim("DNT_{c, v1}(W_7)"));
    }

    #[test]
    fn errors_point_at_the_offending_character() {
        let e = parse_game("TER(C_9) + FOO(x)", ParseOptions::default()).unwrap_err();
        assert_eq!(e.offset(), 11);
        let e = parse_game("TER(C_9", ParseOptions::default()).unwrap_err();
        assert_eq!(e.offset(), 3);
        let e = parse_game("TER(C_9) )", ParseOptions::default()).unwrap_err();
        assert_eq!(e.offset(), 9);
        let e = parse_game("TER(X_9)", ParseOptions::default()).unwrap_err();
        assert_eq!(e.offset(), 4);
        let e = parse_game("DNT_{q}(C_5)", ParseOptions::default()).unwrap_err();
        assert_eq!(e.offset(), 5);
        assert!(parse_game("", ParseOptions::default()).is_err());
        assert!(parse_game("*99999999999999", ParseOptions::default()).is_err());
    }

    #[test]
    fn aux_game_atoms() {
        assert_eq!(nim("DC(17)"), 2);
        assert_eq!(nim("0.137(17)"), 2);
        assert_eq!(nim("0.137(3,17)"), 0);
        assert_eq!(nim("DC(3) + *1"), 3);
        assert_eq!(nim("TER{2,2,3}"), 2);
        assert_eq!(nim("TER{}"), 0);
        assert_eq!(nim("SPL(2,4)"), 0);
        assert_eq!(nim("SPL(3,[3]) + *1"), 0);
        assert_eq!(nim("SPL(2, L^4)"), nim("SPL(2,Λ^4)"));
        assert_eq!(nim("SPL(1,[])"), 0);
        assert_eq!(nim("UEG(SP_{6,2}, (1,1))"), 0);
        assert_eq!(nim("UEG(P_3, v2)"), 1);
        assert_eq!(nim("*1 : DC(3)"), 3);
        let g = parse_game("SPL(2,4) + DC(3)", ParseOptions::default()).unwrap();
        assert_eq!(g.to_string(), "SPL(2,4) + DC(3)");
        assert_eq!(g.label(&crate::game::Game::start(&g)), "(2,Λ^4) + |||");
    }

    #[test]
    fn aux_errors_point_at_the_offending_character() {
        let at = |s: &str| parse_game(s, ParseOptions::default()).unwrap_err().offset();
        assert_eq!(at("DC(4294967296)"), 3);
        assert_eq!(at("DC(x)"), 3);
        assert_eq!(at("*1 + 0.8(3)"), 5);
        assert_eq!(at("0.137(3,)"), 8);
        assert_eq!(at("TER{2,x}"), 6);
        assert_eq!(at("SPL(3,[3)"), 8);
        assert_eq!(at("SPL(3,?)"), 6);
        assert_eq!(at("SPL(1,4)"), 0);
        assert_eq!(at("UEG(SP_{6,2}, (9,9))"), 14);
        assert_eq!(at("UEG(X_2, v1)"), 4);
        assert_eq!(at("UEG(C_4)"), 4);
    }

    #[test]
    fn substitution_is_by_whole_word() {
        let p = vec![("n".to_string(), 7)];
        assert_eq!(substitute("DNT(W_n) + TER(C_n)", &p), "DNT(W_7) + TER(C_7)");
        assert_eq!(substitute("DNT_{v1}(W_n)", &p), "DNT_{v1}(W_7)");
        let q = vec![("m".to_string(), 2), ("n".to_string(), 5)];
        assert_eq!(substitute("TER(W_{m,n})", &q), "TER(W_{2,5})");
    }
}
