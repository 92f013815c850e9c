//! Between the Wrath layout and 256–263 (m2-wrath.md §9).
