package io.gpumeter.billing.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

/**
 * How billing-service prices normalized GPU-hours and where its months begin.
 */
@ConfigMapping(prefix = "gpumeter.billing")
public interface BillingConfig {

    /** ISO 4217 code printed on every row; the rate card's prices are in this currency. */
    @WithDefault("USD")
    String currency();

    /** Zone ID whose local midnights bound a billing month (e.g. Europe/Berlin); months are UTC when unset. */
    Optional<String> timeZone();

    /** The configured zone, or UTC. */
    default ZoneId zone() {
        return timeZone().map(String::strip).filter(z -> !z.isEmpty()).map(ZoneId::of).orElse(ZoneOffset.UTC);
    }

    /** The prices. */
    RateCard rateCard();

    /** The names a FOCUS export prints for who bills what. */
    Focus focus();

    /** When a tenant's daily cost counts as an anomaly. */
    Anomaly anomaly();

    /** Cost anomalies (GET /api/v1/cost-anomalies). */
    interface Anomaly {

        /** Days before the judged day whose costs make the tenant's norm. */
        @WithDefault("14")
        int trailingDays();

        /** A day's cost above the trailing mean plus this many standard deviations is an anomaly… */
        @WithDefault("3")
        BigDecimal sigmas();

        /** …when it is also at least this amount (in the service's currency). */
        @WithDefault("50.00")
        BigDecimal minimumCost();

        /** How long a day's judgement is served again before the ledger is read anew (0s: never cached). */
        @WithDefault("10m")
        Duration cacheFor();
    }

    /** How billing watches ledger-service. */
    Ledger ledger();

    /** The trial calls that let an open breaker of the ledger calls close again without report traffic. */
    interface Ledger {

        /** How often an open breaker is tried. */
        @WithDefault("5s")
        Duration probeInterval();

        /**
         * How long, in seconds, an open breaker answers at once before a call may try the ledger again; the breakers'
         * own configuration reads it.
         */
        @WithDefault("10")
        int breakerDelaySeconds();
    }

    /** Provider, account and service names of the FOCUS export. */
    interface Focus {

        /** ProviderName, PublisherName and InvoiceIssuerName: who runs the fleet and issues the internal bill. */
        @WithDefault("gpumeter")
        String providerName();

        /** BillingAccountId: the account the internal bill is issued to. */
        @WithDefault("gpu-fleet")
        String billingAccountId();

        /** BillingAccountName. */
        @WithDefault("GPU fleet")
        String billingAccountName();

        /** ServiceName: what is being paid for. */
        @WithDefault("GPU time")
        String serviceName();
    }

    /** Prices per normalized GPU-hour. */
    interface RateCard {

        /** Printed on every row, so a bill can be traced to the prices it used. */
        @WithDefault("default-1")
        String version();

        /** Price of one normalized GPU-hour on a model the card does not list (or an unknown model). */
        BigDecimal defaultRate();

        /** Price per normalized GPU-hour by GPU model; names match ignoring case and '-', '_', ' ' differences. */
        Map<String, BigDecimal> models();

        /** Price per kWh the cards drew, in clusters {@link #clusters} does not list; none when unset. */
        @WithName("energy-price-per-kwh")
        Optional<BigDecimal> energyPricePerKWh();

        /** Grams of CO2e one kWh emits, in clusters {@link #clusters} does not list; none when unset. */
        @WithName("grams-co2e-per-kwh")
        Optional<BigDecimal> gramsCo2ePerKWh();

        /** Energy terms by cluster name, as the ledger names the cluster. */
        Map<String, ClusterEnergy> clusters();
    }

    /** One cluster's energy terms; a figure left unset is the card's own. */
    interface ClusterEnergy {

        @WithName("energy-price-per-kwh")
        Optional<BigDecimal> energyPricePerKWh();

        @WithName("grams-co2e-per-kwh")
        Optional<BigDecimal> gramsCo2ePerKWh();
    }
}
