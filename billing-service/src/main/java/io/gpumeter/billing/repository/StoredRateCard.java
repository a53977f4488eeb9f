package io.gpumeter.billing.repository;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;

/**
 * A dated rate card as stored in schema billing; immutable once written.
 */
@Entity
@Table(name = "rate_card")
public class StoredRateCard {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, unique = true)
    public String version;

    @Column(name = "effective_from", nullable = false, unique = true)
    public Instant effectiveFrom;

    @Column(nullable = false, length = 3)
    public String currency;

    @Column(name = "default_rate", nullable = false)
    public BigDecimal defaultRate;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public Map<String, BigDecimal> models;

    /** Price per kWh of the clusters the card does not list; null when the card prices no energy for them. */
    @Column(name = "energy_price_per_kwh")
    public BigDecimal energyPricePerKWh;

    /** Grams of CO2e one kWh emits in the clusters the card does not list; null when it does not say. */
    @Column(name = "grams_co2e_per_kwh")
    public BigDecimal gramsCo2ePerKWh;

    /** Price per kWh by cluster: the same shape as {@link #models}, so one JSON mapping serves both. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "cluster_energy_prices", nullable = false, columnDefinition = "jsonb")
    public Map<String, BigDecimal> clusterEnergyPrices;

    /** Grams of CO2e per kWh by cluster. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "cluster_grams_co2e", nullable = false, columnDefinition = "jsonb")
    public Map<String, BigDecimal> clusterGramsCo2e;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
