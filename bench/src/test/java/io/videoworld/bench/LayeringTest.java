package io.videoworld.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layering of DESIGN.md as rules over the production classes of every module (this
 * module sees them all): core depends on nothing of ours, perception not on Flink, the operators
 * and the query service not on each other, and no package cycles anywhere.
 */
class LayeringTest {
    private static JavaClasses ours;

    @BeforeAll
    static void importProductionClasses() {
        ours = new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests()).importPackages("io.videoworld");
    }

    @Test
    void coreDependsOnNothingOfOurs() {
        noClasses().that().resideInAPackage("io.videoworld.core..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.perception..", "io.videoworld.connectors..",
                    "io.videoworld.operators..", "io.videoworld.query..", "io.videoworld.jobs..", "io.videoworld.testkit..",
                    "io.videoworld.bench..").check(ours);
    }

    @Test
    void perceptionHasNoFlink() {
        noClasses().that().resideInAPackage("io.videoworld.perception..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.flink..", "io.videoworld.operators..",
                    "io.videoworld.connectors..", "io.videoworld.query..", "io.videoworld.jobs..").check(ours);
    }

    @Test
    void operatorsDoNotReachTheQueryService() {
        noClasses().that().resideInAPackage("io.videoworld.operators..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.query..", "io.videoworld.jobs..").check(ours);
    }

    @Test
    void theQueryServiceDoesNotReachTheOperators() {
        noClasses().that().resideInAPackage("io.videoworld.query..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.operators..", "io.videoworld.jobs..").check(ours);
    }

    @Test
    void connectorsStayBelowTheOperators() {
        noClasses().that().resideInAPackage("io.videoworld.connectors..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.operators..", "io.videoworld.query..", "io.videoworld.jobs..",
                    "io.videoworld.perception..").check(ours);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.videoworld.(**)").should().beFreeOfCycles().check(ours);
    }
}
