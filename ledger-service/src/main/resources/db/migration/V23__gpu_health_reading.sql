-- dcgm-exporter's memory-health series of a card (row remap failed / pending, double-bit ECC errors since the
-- driver loaded, pages pending retirement), each a value repeated on every scrape. As for the Xid gauge, the failure
-- books need only where a value changes: each delivery keeps the first and last reading of every run of one value
-- per card and signal, readings inside a run are compacted away, and a reading delivered twice is stored once.
CREATE TABLE gpu_health_reading (
    cluster  text        NOT NULL,
    gpu_uuid text        NOT NULL,
    signal   text        NOT NULL,
    at       timestamptz NOT NULL,
    value    bigint      NOT NULL,
    node     text,
    PRIMARY KEY (cluster, gpu_uuid, signal, at)
);
