-- Host minutes: kubelet's cAdvisor series of GPU pods' cgroups (a container, or the pod itself as container '': its
-- cgroup's CPU, its sandbox's network) and node-exporter's of GPU nodes, per minute. collector-service folds the
-- counters into increases as Prometheus reads them; each amount is the increase over covered_ms of the minute (the
-- time between two scrapes the minute holds), so a rate is amount / (covered_ms / 1000). A quantity the source did
-- not report is NULL. A minute delivered again replaces the stored one only when it covers more of the minute.
-- Daily partitions are created as data arrives; past the minute retention they are folded into hours, as usage is.
CREATE TABLE host_container_minute (
    cluster               text             NOT NULL,
    namespace             text             NOT NULL,
    pod                   text             NOT NULL,
    container             text             NOT NULL,
    minute                timestamptz      NOT NULL,
    node                  text             NOT NULL,
    covered_ms            integer          NOT NULL CHECK (covered_ms BETWEEN 0 AND 60000),
    samples               integer          NOT NULL,
    cpu_seconds           double precision,
    cfs_periods           double precision,
    cfs_throttled_periods double precision,
    cpu_limit_cores       double precision,
    fs_read_bytes         double precision,
    fs_write_bytes        double precision,
    net_receive_bytes     double precision,
    net_transmit_bytes    double precision,
    PRIMARY KEY (cluster, namespace, pod, container, minute)
) PARTITION BY RANGE (minute);

CREATE TABLE host_node_minute (
    cluster                         text             NOT NULL,
    node                            text             NOT NULL,
    minute                          timestamptz      NOT NULL,
    covered_ms                      integer          NOT NULL CHECK (covered_ms BETWEEN 0 AND 60000),
    samples                         integer          NOT NULL,
    cpus                            integer,
    cpu_idle_seconds                double precision,
    cpu_iowait_seconds              double precision,
    cpu_user_seconds                double precision,
    cpu_system_seconds              double precision,
    cpu_other_seconds               double precision,
    cpu_pressure_waiting_seconds    double precision,
    io_pressure_stalled_seconds     double precision,
    memory_pressure_stalled_seconds double precision,
    net_receive_bytes               double precision,
    net_transmit_bytes              double precision,
    net_receive_drops               double precision,
    net_transmit_drops              double precision,
    PRIMARY KEY (cluster, node, minute)
) PARTITION BY RANGE (minute);

-- The same folded per hour once the minute retention passed: amounts and covered time add up exactly, `minutes`
-- counts the minute rows, the CPU limit and the CPU count keep their largest. Monthly partitions, dropped past the
-- hour retention.
CREATE TABLE host_container_hour (
    cluster               text             NOT NULL,
    namespace             text             NOT NULL,
    pod                   text             NOT NULL,
    container             text             NOT NULL,
    hour                  timestamptz      NOT NULL CHECK (hour = date_trunc('hour', hour)),
    node                  text             NOT NULL,
    minutes               integer          NOT NULL,
    covered_ms            bigint           NOT NULL,
    samples               integer          NOT NULL,
    cpu_seconds           double precision,
    cfs_periods           double precision,
    cfs_throttled_periods double precision,
    cpu_limit_cores       double precision,
    fs_read_bytes         double precision,
    fs_write_bytes        double precision,
    net_receive_bytes     double precision,
    net_transmit_bytes    double precision,
    PRIMARY KEY (cluster, namespace, pod, container, hour)
) PARTITION BY RANGE (hour);

CREATE TABLE host_node_hour (
    cluster                         text             NOT NULL,
    node                            text             NOT NULL,
    hour                            timestamptz      NOT NULL CHECK (hour = date_trunc('hour', hour)),
    minutes                         integer          NOT NULL,
    covered_ms                      bigint           NOT NULL,
    samples                         integer          NOT NULL,
    cpus                            integer,
    cpu_idle_seconds                double precision,
    cpu_iowait_seconds              double precision,
    cpu_user_seconds                double precision,
    cpu_system_seconds              double precision,
    cpu_other_seconds               double precision,
    cpu_pressure_waiting_seconds    double precision,
    io_pressure_stalled_seconds     double precision,
    memory_pressure_stalled_seconds double precision,
    net_receive_bytes               double precision,
    net_transmit_bytes              double precision,
    net_receive_drops               double precision,
    net_transmit_drops              double precision,
    PRIMARY KEY (cluster, node, hour)
) PARTITION BY RANGE (hour);

-- Every host row whatever its resolution: minutes where the minute retention keeps them, hours before; `at` is the
-- start of the row's span.
CREATE VIEW host_container_rollup AS
SELECT cluster, namespace, pod, container, node, minute AS at, interval '1 minute' AS span, 1 AS minutes,
       covered_ms::bigint AS covered_ms, samples, cpu_seconds, cfs_periods, cfs_throttled_periods, cpu_limit_cores,
       fs_read_bytes, fs_write_bytes, net_receive_bytes, net_transmit_bytes
FROM host_container_minute
UNION ALL
SELECT cluster, namespace, pod, container, node, hour, interval '1 hour', minutes, covered_ms, samples, cpu_seconds,
       cfs_periods, cfs_throttled_periods, cpu_limit_cores, fs_read_bytes, fs_write_bytes, net_receive_bytes,
       net_transmit_bytes
FROM host_container_hour;

CREATE VIEW host_node_rollup AS
SELECT cluster, node, minute AS at, interval '1 minute' AS span, 1 AS minutes, covered_ms::bigint AS covered_ms,
       samples, cpus, cpu_idle_seconds, cpu_iowait_seconds, cpu_user_seconds, cpu_system_seconds, cpu_other_seconds,
       cpu_pressure_waiting_seconds, io_pressure_stalled_seconds, memory_pressure_stalled_seconds, net_receive_bytes,
       net_transmit_bytes, net_receive_drops, net_transmit_drops
FROM host_node_minute
UNION ALL
SELECT cluster, node, hour, interval '1 hour', minutes, covered_ms, samples, cpus, cpu_idle_seconds,
       cpu_iowait_seconds, cpu_user_seconds, cpu_system_seconds, cpu_other_seconds, cpu_pressure_waiting_seconds,
       io_pressure_stalled_seconds, memory_pressure_stalled_seconds, net_receive_bytes, net_transmit_bytes,
       net_receive_drops, net_transmit_drops
FROM host_node_hour;
