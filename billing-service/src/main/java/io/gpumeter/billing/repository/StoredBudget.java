package io.gpumeter.billing.repository;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A tenant's standing monthly budget as stored in schema billing.
 */
@Entity
@Table(name = "budget")
public class StoredBudget {

    @Id
    public String tenant;

    @Column(name = "monthly_amount", nullable = false)
    public BigDecimal monthlyAmount;

    @Column(nullable = false, length = 3)
    public String currency;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
