// midas_graph schema version 6. One statement per `;`. See schema/README.md.
// Bounded growth (docs/forgetting.md). Each episode's importance, computed at
// ingest with no LLM (midas_graph/_importance.py): the value forgetting ranks
// by (`importance`, the scorer's own when Memory(importance=...) is given) and
// the two no-LLM scores it is made of. Null on episodes written before
// version 6 (unscored: forgetting values them as IMPORTANCE_UNSCORED).
// And its tier state: `cold_at` (null: hot) is when forget() took it out of
// the recall indexes and dropped its vectors, `cold_reason` why; both are
// sealed by `cold_digest` (null while hot), written by the same SET. The
// episode digest now covers the three importance columns (tag episode/2):
// every episode is sealed again by the upgrade, as it reads then.
ALTER TABLE Episode ADD importance DOUBLE;
ALTER TABLE Episode ADD content_score DOUBLE;
ALTER TABLE Episode ADD structural_score DOUBLE;
ALTER TABLE Episode ADD cold_at TIMESTAMP;
ALTER TABLE Episode ADD cold_reason STRING;
ALTER TABLE Episode ADD cold_digest STRING;
