//! Build script: the templates are compiled into the binary (src/render/mod.rs embeds
//! `templates/` with include_dir), so a change there must rebuild it.

fn main() {
    println!("cargo:rerun-if-changed=templates");
    println!("cargo:rerun-if-changed=build.rs");
}
