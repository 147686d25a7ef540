/* Shared between the archive container's files. */
#ifndef UCIZIP_ARCHIVE_INTERNAL_H
#define UCIZIP_ARCHIVE_INTERNAL_H

#include "archive/archive.h"
#include "archive/packer.h"

#endif
