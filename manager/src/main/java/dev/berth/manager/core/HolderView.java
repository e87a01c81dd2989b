package dev.berth.manager.core;

import dev.berth.manager.scheduling.AdmittedWorkload;
import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Holders as the planner sees them, in the index's victim order, without a copy. With a
 * {@code viewer}, a holder that another queue admitted in pass {@code pass} is left out.
 */
final class HolderView extends AbstractCollection<AdmittedWorkload> {
    private final Collection<WorkloadEntry> holders;
    private final String viewer;
    private final long pass;

    HolderView(Collection<WorkloadEntry> holders, String viewer, long pass) {
        this.holders = holders;
        this.viewer = viewer;
        this.pass = pass;
    }

    private boolean visible(WorkloadEntry holder) {
        return viewer == null || holder.reservedInPass != pass || holder.holderView.clusterQueue().equals(viewer);
    }

    @Override
    public Iterator<AdmittedWorkload> iterator() {
        Iterator<WorkloadEntry> all = holders.iterator();
        return new Iterator<>() {
            private WorkloadEntry next = advance();

            private WorkloadEntry advance() {
                while (all.hasNext()) {
                    WorkloadEntry candidate = all.next();
                    if (visible(candidate)) return candidate;
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public AdmittedWorkload next() {
                if (next == null) throw new NoSuchElementException();
                AdmittedWorkload view = next.holderView;
                next = advance();
                return view;
            }
        };
    }

    @Override
    public int size() {
        int size = 0;
        for (WorkloadEntry holder : holders) if (visible(holder)) size++;
        return size;
    }
}
