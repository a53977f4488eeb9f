package io.gpumeter.billing.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** The ledger's fragmentation of free GPU memory and MIG slices at an instant, per node pool. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record FragmentationView(List<Pool> groups) {

    /** One pool: the card model unless the ledger is configured with pool labels. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Pool(String key, Map<String, String> group, Memory memory, Mig mig) {
    }

    /** Free memory typical request shapes cannot use; {@code overall} weighs the shapes by the ledger's mix. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Memory(int cards, long freeMiB, List<Shape> shapes, BigDecimal overall) {
    }

    /** One request shape and the share of free memory it cannot use. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Shape(int sizeGiB, BigDecimal ratio) {
    }

    /** Free MIG slices no configured profile fits, as a share. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Mig(int cards, int freeSlices, int strandedSlices, BigDecimal ratio) {
    }
}
