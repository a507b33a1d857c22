// midas_graph schema version 2. One statement per `;`. See schema/README.md.
// The episode whose transaction expired a fact version (null while the version
// is held, when an API call expired it, and on rows written before version 2).
ALTER TABLE Fact ADD expired_by_episode STRING;
