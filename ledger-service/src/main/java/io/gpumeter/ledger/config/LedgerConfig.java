package io.gpumeter.ledger.config;

import io.gpumeter.common.config.RetentionConfig;
import io.smallrye.config.ConfigMapping;

/**
 * How the ledger attributes and normalizes allocations; the groups' settings are kept by concern in
 * {@link AllocationConfig}, {@link UsageConfig}, {@link FleetConfig} and {@link GovernanceConfig}.
 */
@ConfigMapping(prefix = "gpumeter.ledger")
public interface LedgerConfig {

    /** Which labels name the tenant, team and project. */
    AllocationConfig.Attribution attribution();

    /** The conversion of whole cards, MIG slices, vGPU shares and time-slices to one card-equivalent scale. */
    AllocationConfig.Normalization normalization();

    /** Thresholds of the utilization triad's four signatures. */
    UsageConfig.Diagnosis diagnosis();

    /** How allocated time is told busy or not busy. */
    UsageConfig.Idle idle();

    /** The typical request shapes and MIG profiles free capacity is probed with. */
    FleetConfig.Fragmentation fragmentation();

    /** The fleet gauges served on /q/metrics. */
    FleetConfig.Gauges gauges();

    /** The day books of reports: a day's answer stored once the day is over. */
    FleetConfig.DayBooks dayBooks();

    /** How failure reports from different sources are told to be the same failure. */
    GovernanceConfig.Failures failures();

    /** The resources through which pods ask HAMi for shares of cards. */
    AllocationConfig.Hami hami();

    /** How long usage is kept per minute and per hour. */
    RetentionConfig retention();

    /** What the change book leaves out, the window a change's impact compares, and how far incidents look back. */
    GovernanceConfig.Changes changes();

    /** When a node's MIG views disagreeing with its configured layout becomes an incident. */
    GovernanceConfig.Mig mig();
}
