package io.gpumeter.slo.repository;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A service level objective as stored in schema slo; the objective columns are null for AVAILABILITY, tenant and
 * namespace for a service selector, service for a tenant selector over all the tenant's services.
 */
@Entity
@Table(name = "slo_definition")
public class StoredSlo {

    @Id
    public String name;

    public String service;

    public String tenant;

    public String namespace;

    @Column(nullable = false)
    public String sli;

    @Column(name = "objective_percentile")
    public BigDecimal objectivePercentile;

    @Column(name = "objective_threshold_ms")
    public BigDecimal objectiveThresholdMs;

    @Column(name = "objective_per")
    public String objectivePer;

    @Column(nullable = false)
    public BigDecimal target;

    /** ISO-8601 duration. */
    @Column(name = "slo_window", nullable = false)
    public String window;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
