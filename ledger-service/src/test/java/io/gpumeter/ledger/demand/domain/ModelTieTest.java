package io.gpumeter.ledger.demand.domain;

import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.PodPlacement;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What ties a wait to one model, and what leaves it tied to none. */
class ModelTieTest {

    static final String A100 = "NVIDIA A100 SXM4 80GB";

    static NodeSelectorTerm term(String key, String operator, String... values) {
        return new NodeSelectorTerm(List.of(new LabelRequirement(key, operator, List.of(values))), List.of());
    }

    @Test
    void spellingsOfOneModelAreOneAndTwoModelsAreNone() {
        assertEquals(A100, ModelTie.one(List.of("NVIDIA-A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB")));
        // GPU feature discovery's product under the single MIG strategy names the card model with a suffix
        assertEquals(A100, ModelTie.one(List.of("NVIDIA-A100-SXM4-80GB-MIG-1g.10gb")));
        assertNull(ModelTie.one(List.of("NVIDIA-A100-SXM4-80GB", "NVIDIA-H100-80GB-HBM3")));
        assertNull(ModelTie.one(Arrays.asList("NVIDIA-A100-SXM4-80GB", null)), "a flavor naming no product");
        assertNull(ModelTie.one(List.of()));
    }

    @Test
    void aPlacementTiesOnlyWhenEveryWayItAllowsIsOneModel() {
        String product = "nvidia.com/gpu.product";
        assertEquals(A100, ModelTie.ofPlacement(new PodPlacement(Map.of(product, "NVIDIA-A100-SXM4-80GB"), List.of(), List.of())));
        assertEquals(A100, ModelTie.ofPlacement(new PodPlacement(Map.of(), List.of(
                term(product, "In", "NVIDIA-A100-SXM4-80GB"), term(product, "In", "NVIDIA A100-SXM4-80GB")), List.of())));
        assertNull(ModelTie.ofPlacement(new PodPlacement(Map.of(), List.of(
                term(product, "In", "NVIDIA-A100-SXM4-80GB", "NVIDIA-H100-80GB-HBM3")), List.of())), "either model");
        assertNull(ModelTie.ofPlacement(new PodPlacement(Map.of(), List.of(
                term(product, "In", "NVIDIA-A100-SXM4-80GB"), term("pool", "In", "big")), List.of())), "a term any model meets");
        assertNull(ModelTie.ofPlacement(new PodPlacement(Map.of(), List.of(term(product, "NotIn", "NVIDIA-H100-80GB-HBM3")),
                List.of())), "NotIn leaves every other model");
        assertNull(ModelTie.ofPlacement(new PodPlacement(Map.of("pool", "big"), List.of(), List.of())));
        assertNull(ModelTie.ofPlacement(null));
        assertNull(ModelTie.ofPlacement(new PodPlacement(Map.of(product, " "), List.of(), List.of())), "a blank product");
    }
}
