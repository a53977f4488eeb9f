package io.gpumeter.slo.repository;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** An acceptance run as stored in schema slo: the plan as sent and the run as computed, both JSON. */
@Entity
@Table(name = "acceptance_run")
public class StoredRun {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String name;

    @Column(name = "window_from", nullable = false)
    public Instant from;

    @Column(name = "window_to", nullable = false)
    public Instant to;

    @Column(nullable = false)
    public String verdict;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(nullable = false)
    public String plan;

    @Column(nullable = false)
    public String run;
}
