/* version.h - the version and git commit of the build (defined in the build tree's generated/warpsim_version.c,
   written by cmake/version.cmake at every build; the commit is "unknown" outside a git checkout). */
#ifndef WARPSIM_CORE_VERSION_H
#define WARPSIM_CORE_VERSION_H

extern const char warpsim_version[], warpsim_commit[];

#endif
