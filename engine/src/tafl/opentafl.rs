//! OpenTafl notation.
