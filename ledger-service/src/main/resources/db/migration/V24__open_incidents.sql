-- Open incidents are read by whether they are open, whatever their start (a card waiting weeks for its reset):
-- the few still open are found without reading the whole failure history.
CREATE INDEX gov_incident_open ON gov_incident (started_at) WHERE recovered_at IS NULL AND ended_at IS NULL;
