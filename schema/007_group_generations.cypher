// midas_graph schema version 7. One statement per `;`. See schema/README.md.
// A stored generation per group (docs/scaling.md, "Freshness"): every write
// transaction adds one to the counter of each group it wrote, in the same
// transaction (a write that names no group counts under the group "*"). A
// cache of a group (recall index, people links, compaction horizon) is valid
// while the group's counter and "*" are where they were when it was built,
// in any process. No migration: a group without a row is at 0.
CREATE NODE TABLE GroupGeneration(group_id STRING PRIMARY KEY, generation INT64);
