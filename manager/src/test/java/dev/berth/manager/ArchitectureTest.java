package dev.berth.manager;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleName;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;

/**
 * Decisions stay pure: the domain model, the admission controller and the scheduler never touch
 * HTTP, Kubernetes clients, JSON, files or the wall clock. Time comes from an injected Clock.
 */
@AnalyzeClasses(packages = "dev.berth.manager", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String[] PURE_PACKAGES = {
            "dev.berth.manager.model..", "dev.berth.manager.core..", "dev.berth.manager.scheduling..",
            "dev.berth.manager.dispatch..", "dev.berth.manager.explain.."};

    @ArchTest
    static final ArchRule decisions_do_not_depend_on_io_or_frameworks = noClasses()
            .that().resideInAnyPackage(PURE_PACKAGES)
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.vertx..", "io.fabric8..", "com.fasterxml.jackson..", "java.net..", "java.nio.file..")
            .orShould().dependOnClassesThat().haveNameMatching("java\\.io\\.File.*")
            .allowEmptyShould(true)
            .because("decisions are pure Java over snapshots; I/O and frameworks live at the edges");

    /** The wire's custom resources (RemoteWorkload and its parts) carry fabric8 and Jackson types: ArchUnit's rule above sees only direct uses. */
    @ArchTest
    static final ArchRule decisions_do_not_hold_the_wire_resources = noClasses()
            .that().resideInAnyPackage(PURE_PACKAGES)
            .should().dependOnClassesThat(resideInAPackage("dev.berth.protocol.crd..").and(not(simpleName("RemoteWorkloadPhase"))))
            .allowEmptyShould(true)
            .because("a dispatch attempt and the policies hold plain records built at the edge from what the agents report"
                    + " (the phase names are plain constants)");

    @ArchTest
    static final ArchRule security_decisions_do_not_depend_on_vertx = noClasses()
            .that().resideInAPackage("dev.berth.manager.security")
            .should().dependOnClassesThat().resideInAnyPackage("io.vertx..")
            .because("authentication, RBAC, limits and audit records are plain Java; the Vert.x edge is security.edge");

    @ArchTest
    static final ArchRule decisions_do_not_read_the_clock = noClasses()
            .that().resideInAnyPackage(PURE_PACKAGES)
            .should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethod(Clock.class, "systemUTC")
            .orShould().callMethod(Clock.class, "systemDefaultZone")
            .orShould().callMethod(LocalDateTime.class, "now")
            .allowEmptyShould(true)
            .because("time comes from the injected Clock, so tests move time instead of sleeping");

    @ArchTest
    static final ArchRule packages_are_free_of_cycles = slices()
            .matching("dev.berth.manager.(*)..")
            .should().beFreeOfCycles()
            .because("each package builds on lower ones only, so it can be read, tested and moved on its own");
}
