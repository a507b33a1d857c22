// midas_graph schema version 1. One statement per `;`. See schema/README.md.
CREATE NODE TABLE Meta(key STRING PRIMARY KEY, value STRING);
CREATE NODE TABLE Entity(id STRING PRIMARY KEY, group_id STRING, name STRING, aliases STRING[], kind STRING, summary STRING, name_embedding STRING, created_at TIMESTAMP);
CREATE NODE TABLE Alias(key STRING PRIMARY KEY, group_id STRING, alias STRING, entity_id STRING);
CREATE NODE TABLE Episode(id STRING PRIMARY KEY, group_id STRING, name STRING, content STRING, speaker STRING, source STRING, source_description STRING, reference_time TIMESTAMP, recorded_at TIMESTAMP, expired_at TIMESTAMP, provenance STRING, embedding STRING);
CREATE NODE TABLE Fact(vid STRING PRIMARY KEY, id STRING, version INT64, group_id STRING, subject_id STRING, subject STRING, attribute STRING, value STRING, value_type STRING, object_id STRING, text STRING, valid_from TIMESTAMP, valid_to TIMESTAMP, stated_valid_to TIMESTAMP, recorded_at TIMESTAMP, expired_at TIMESTAMP, superseded_by STRING, supersedes STRING[], episode_id STRING, provenance STRING, confidence DOUBLE, importance DOUBLE, source STRING, reason STRING, expire_reason STRING);
CREATE NODE TABLE FactVector(id STRING PRIMARY KEY, embedding STRING);
CREATE NODE TABLE Slot(key STRING PRIMARY KEY, held STRING);
CREATE REL TABLE HAS_FACT(FROM Entity TO Fact);
CREATE REL TABLE OBJECT(FROM Fact TO Entity);
CREATE REL TABLE FROM_EPISODE(FROM Fact TO Episode);
CREATE REL TABLE MENTIONS(FROM Episode TO Entity);
CREATE REL TABLE SUPERSEDED_BY(FROM Fact TO Fact);
