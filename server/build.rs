//! Rebuilds the server when a file of the browser client changes, is added or is removed: the
//! client is embedded in the binary (`src/web.rs`), and a new file alone would not trigger that.
fn main() {
    println!("cargo:rerun-if-changed=../web");
}
