// midas_graph schema version 4. One statement per `;`. See schema/README.md.
// A digest of each row's fields (midas_graph/_digest.py), so that a damaged
// database file is found instead of read as if it were fine. Fact versions
// carry a second digest of the three columns written when they expire (null
// while held). Rows written before version 4 get theirs when the database is
// upgraded (Store._migrate computes them from the rows as read then).
ALTER TABLE Fact ADD digest STRING;
ALTER TABLE Fact ADD expiry_digest STRING;
ALTER TABLE Episode ADD digest STRING;
ALTER TABLE Entity ADD digest STRING;
ALTER TABLE Alias ADD digest STRING;
