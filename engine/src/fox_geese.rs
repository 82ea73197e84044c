//! Fox and Geese (Hala-tafl).
