-- Each incident's stable id (IncidentIds: a hash of the cluster, the key without its start and the start to the
-- microsecond), written with the row by every derivation, so GET /api/v1/failures/incidents/{id} finds it by an
-- index. Rows stored before are left null and given their id by the ledger at start (IncidentIdBackfill): the rule
-- reads the key as Java wrote it, which SQL would have to parse the same way.
ALTER TABLE gov_incident ADD COLUMN id text;
CREATE INDEX gov_incident_id ON gov_incident (id);
