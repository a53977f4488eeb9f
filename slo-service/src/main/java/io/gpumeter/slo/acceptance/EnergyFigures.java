package io.gpumeter.slo.acceptance;

import io.gpumeter.slo.efficiency.PodEnergy;
import io.gpumeter.slo.efficiency.TokensPerJoule;

import java.util.ArrayList;
import java.util.List;

/**
 * TOKENS_PER_JOULE of a cell: its pods' generated tokens over the energy the ledger split to their units, from the
 * run's one read of GPU-hours by pod and model (the read used/allocated and the costs take) — no read of its own.
 */
final class EnergyFigures {

    private EnergyFigures() {
    }

    static Figures.Figure tokensPerJoule(CellData cell, FleetFigures fleet) {
        LedgerReads.Read<com.fasterxml.jackson.databind.JsonNode> read = fleet.hoursByPod;
        String unread = read == null ? "not read" : read.answer() == null ? read.call().response() : null;
        TokensPerJoule.Result r = TokensPerJoule.of(cell.pods(), cell.tokenReadings(),
                PodEnergy.of(read == null ? null : read.answer(), cell.pods()), unread);
        StringBuilder csv = new StringBuilder("cell,pod,tokens,first_reading,last_reading,joules,allocated_gpu_hours,"
                + "energy_coverage,energy_source,counted,left_out_because\n");
        r.pods().forEach(p -> csv.append(PackCsv.line(cell.cell().name(), p.namespace() + "/" + p.pod(), p.tokens(),
                p.firstReading(), p.lastReading(), p.joules(), p.allocatedGpuHours(), p.energyCoverage(),
                p.energySource(), p.counted(), p.leftOutBecause())));
        List<Run.Call> calls = new ArrayList<>(cell.calls());
        calls.addAll(Figures.calls(read));
        String missing = cell.pods().isEmpty() ? "the cell's pods reported no requests in the window" : r.missing();
        return new Figures.Figure(r.tokensPerJoule(), r.tokensPerJoule() == null ? missing : null, calls,
                csv.toString(), r.note());
    }
}
