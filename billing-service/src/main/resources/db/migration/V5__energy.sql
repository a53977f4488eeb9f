-- Energy beside GPU-hours: a rate card may price the kWh the cards drew and state the grams of CO2e one kWh emits,
-- for clusters it does not list (the card's own figures) and per cluster. Each figure is optional: a report prints
-- no energy cost, or no CO2e, for kWh no card gives a figure for.
ALTER TABLE rate_card
    ADD COLUMN energy_price_per_kwh numeric CHECK (energy_price_per_kwh >= 0),
    ADD COLUMN grams_co2e_per_kwh   numeric CHECK (grams_co2e_per_kwh >= 0),
    -- {"<cluster>": <price per kWh>, ...} and {"<cluster>": <grams CO2e per kWh>, ...}
    ADD COLUMN cluster_energy_prices jsonb NOT NULL DEFAULT '{}'::jsonb,
    ADD COLUMN cluster_grams_co2e    jsonb NOT NULL DEFAULT '{}'::jsonb;

-- A closed month copies its cards' energy terms as it copies their rates, so a later card never reprices its energy.
-- Parallel arrays: clusters[i] costs cluster_energy_prices[i] per kWh and emits cluster_grams_co2e[i] g per kWh (an
-- element is NULL where the card left that figure to its own).
ALTER TABLE closed_stretch
    ADD COLUMN energy_price_per_kwh  numeric CHECK (energy_price_per_kwh >= 0),
    ADD COLUMN grams_co2e_per_kwh    numeric CHECK (grams_co2e_per_kwh >= 0),
    ADD COLUMN clusters              text[]    NOT NULL DEFAULT '{}',
    ADD COLUMN cluster_energy_prices numeric[] NOT NULL DEFAULT '{}',
    ADD COLUMN cluster_grams_co2e    numeric[] NOT NULL DEFAULT '{}',
    ADD CONSTRAINT closed_stretch_clusters_parallel CHECK (cardinality(clusters) = cardinality(cluster_energy_prices)
        AND cardinality(clusters) = cardinality(cluster_grams_co2e));

-- Months closed before this migration recorded no energy: they keep printing without the energy columns, and their
-- corrections leave energy out. Every month closed from now on says true.
ALTER TABLE closed_month ADD COLUMN energy_recorded boolean NOT NULL DEFAULT false;

-- A line's energy (kWh its units drew) and, where its stretch's card prices energy per cluster, its cluster.
ALTER TABLE closed_line
    ADD COLUMN cluster    text,
    ADD COLUMN energy_kwh numeric;

-- What each cluster's cards drew in each stretch of a closed month while no unit held them: the energy of the
-- unallocated line, booked to no tenant.
CREATE TABLE closed_idle_energy (
    month           text    NOT NULL,
    stretch_seq     int     NOT NULL,
    cluster         text,
    idle_energy_kwh numeric NOT NULL,
    FOREIGN KEY (month, stretch_seq) REFERENCES closed_stretch (month, seq)
);
CREATE INDEX closed_idle_energy_month ON closed_idle_energy (month);
CREATE TRIGGER closed_idle_energy_final BEFORE UPDATE OR DELETE ON closed_idle_energy
    FOR EACH ROW EXECUTE FUNCTION closed_books_are_final();
