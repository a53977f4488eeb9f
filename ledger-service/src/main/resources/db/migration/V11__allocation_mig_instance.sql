-- The GPU instance a MIG unit runs on, once an exporter named it: used GPU-hours then read that instance's own
-- series instead of apportioning the card's.
ALTER TABLE allocation_segment ADD COLUMN mig_instance text;
